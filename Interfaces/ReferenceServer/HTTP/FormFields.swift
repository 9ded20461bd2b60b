import Foundation

/// Name/value pairs of an `application/x-www-form-urlencoded` body or a query string.
///
/// Decoded per the WHATWG URL standard: `+` is a space and `%2B` a plus, so a token holding
/// `+`, `/` or `=` survives when the client encoded it. Malformed percent escapes are an error
/// rather than being passed through, so a client bug shows up as `invalid_request`.
struct FormFields: Sendable {
    let pairs: [(name: String, value: String)]

    /// Parses `text`; `nil` when a percent escape or the UTF-8 it encodes is invalid.
    init?(_ text: Substring) {
        var pairs: [(name: String, value: String)] = []
        for field in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]) else { return nil }
            let value = parts.count > 1 ? Self.decode(parts[1]) : ""
            guard let value else { return nil }
            pairs.append((name, value))
        }
        self.pairs = pairs
    }

    /// The first value for `name`.
    subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// How often `name` appears; RFC 6749 §3.2 forbids repeating a parameter.
    func count(of name: String) -> Int {
        pairs.count { $0.name == name }
    }

    private static func decode(_ raw: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.utf8.count)
        var iterator = raw.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
