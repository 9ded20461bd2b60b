import Foundation
import RiderDomain

/// JSON conventions of the API contract: snake_case keys are spelled out in each DTO, dates are
/// RFC 3339 with or without fractional seconds.
enum ContractCoding {
    /// One decoder for every response: it is configured once and safe to share between threads,
    /// so no response pays for building it.
    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseDate(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an RFC 3339 date")
            }
            return date
        }
        return decoder
    }()

    static func decode<T: Decodable>(_ type: T.Type, from data: Data, what: String) throws -> T {
        do {
            return try decoder.decode(type, from: data)
        } catch let error as DecodingError {
            throw RiderError.malformedResponse("\(what) is not valid (\(describe(error)))")
        } catch {
            throw RiderError.malformedResponse("\(what) is not valid JSON")
        }
    }

    static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(value)
    }

    static func parseDate(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// Names the failing field without quoting the payload, which may hold a token. The field
    /// names on the path may come from the payload (an object the client keeps as it is), so
    /// they are clipped like a server's problem text: no control characters, bounded length.
    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ProblemMapping.clip($0.stringValue) }
            return keys.isEmpty ? "top level" : ProblemMapping.clip(keys.joined(separator: "."))
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = path(context)
            return "missing field '\(ProblemMapping.clip(key.stringValue))'" + (parent == "top level" ? "" : " in \(parent)")
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "wrong type at \(path(context))"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not JSON" : "bad value at \(path(context))"
        @unknown default:
            return "undecodable"
        }
    }
}
