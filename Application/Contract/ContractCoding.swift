import Foundation
import RiderDomain

/// JSON conventions of the API contract: snake_case keys are spelled out in each DTO, dates are
/// RFC 3339 with or without fractional seconds.
package enum ContractCoding {
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
        try decodeWithJSONDecoder(type, from: data, what: what)
    }

    /// Always through `JSONDecoder`, whose answers and errors the fast path is held to (tests).
    package static func decodeWithJSONDecoder<T: Decodable>(_ type: T.Type, from data: Data, what: String) throws -> T {
        do {
            return try decoder.decode(type, from: data)
        } catch let error as DecodingError {
            throw RiderError.malformedResponse("\(what) is not valid (\(describe(error)))")
        } catch {
            throw RiderError.malformedResponse("\(what) is not valid JSON")
        }
    }

    /// The same for the DTOs of the hot path: read straight from the bytes when the body is a
    /// plain object (``FlatJSONObject``), by `JSONDecoder` otherwise — the same value either way,
    /// and the same errors, which only `JSONDecoder` reports.
    static func decode<T: FlatJSONDecodable>(_ type: T.Type, from data: Data, what: String) throws -> T {
        if let object = FlatJSONObject(data), let value = T(flat: object) { return value }
        return try decodeWithJSONDecoder(type, from: data, what: what)
    }

    static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(value)
    }

    package static func parseDate(_ text: String) -> Date? {
        if let date = parseUTCSeconds(text) { return date }
        if let date = try? Date(text, strategy: .iso8601) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` between the years 1601 and 9999, the form servers send most, read
    /// without Foundation's ISO 8601 parser (a fifth of decoding a user took that parser); `nil`
    /// for anything else, which ``parseDate(_:)`` leaves to Foundation. Before 1601 Foundation's
    /// Gregorian calendar turns Julian, so those dates stay with it too.
    package static func parseUTCSeconds(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes -> Date? in
            guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
                  bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
                  bytes[19] == UInt8(ascii: "Z") else { return nil }
            func digits(_ start: Int, _ count: Int) -> Int64? {
                var value: Int64 = 0
                for index in start..<(start + count) {
                    let digit = Int64(bytes[index]) - Int64(UInt8(ascii: "0"))
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            guard let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
                  let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
                  (1601...9999).contains(year), (1...12).contains(month), hour < 24, minute < 60, second < 60,
                  (1...HTTPDate.daysIn(month: month, year: year)).contains(day)
            else { return nil }
            let days = HTTPDate.daysFromCivil(year: year, month: month, day: day)
            return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
        }
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
