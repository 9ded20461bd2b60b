import Foundation

/// The one JSON encoder of `--json` output: snake_case keys made from the output types' property
/// names (`userID` → `user_id`), ISO-8601 dates, sorted keys, so scripts and diffs see a stable
/// shape.
enum JSONOutput {
    static func string(_ value: some Encodable) -> String? {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
