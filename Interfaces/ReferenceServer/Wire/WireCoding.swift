import Foundation

/// JSON conventions of the contract. Keys are spelled out in each wire type's `CodingKeys`, so
/// no key strategy is needed; dates go out as RFC 3339 UTC with whole seconds.
enum WireCoding {
    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
    }

    static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    /// Decodes a request body; `nil` when it is not JSON at all.
    static func decodeValue(_ data: Data) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: data)
    }
}
