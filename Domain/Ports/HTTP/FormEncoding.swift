import Foundation

/// `application/x-www-form-urlencoded` encoding (WHATWG URL standard).
///
/// Everything but `A–Z a–z 0–9 * - . _` is percent-encoded, so a token holding `+`, `/` or `=`
/// reaches the server intact.
package enum FormEncoding {
    private static let unreserved: Set<UInt8> = Set(
        Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789*-._".utf8))

    /// Encodes name/value pairs in order.
    /// - Parameters:
    ///   - pairs: names and values, sent in this order.
    ///   - spaceAsPlus: `true` for form bodies; `false` writes `%20`, which every server
    ///     reads as a space in a query string.
    package static func encode(_ pairs: [(String, String)], spaceAsPlus: Bool = true) -> String {
        pairs.map { "\(escape($0.0, spaceAsPlus: spaceAsPlus))=\(escape($0.1, spaceAsPlus: spaceAsPlus))" }
            .joined(separator: "&")
    }

    /// Decodes a form body into pairs, in order; `+` is a space.
    package static func decode(_ string: String) -> [(String, String)] {
        string.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = unescape(String(parts[0]))
            let value = parts.count > 1 ? unescape(String(parts[1])) : ""
            return (name, value)
        }
    }

    /// Percent-encodes one name or value.
    /// - Parameters:
    ///   - string: the name or value.
    ///   - spaceAsPlus: `true` writes a space as `+` (form bodies), `false` as `%20`.
    package static func escape(_ string: String, spaceAsPlus: Bool) -> String {
        var result = ""
        result.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            if unreserved.contains(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else if byte == UInt8(ascii: " ") && spaceAsPlus {
                result.append("+")
            } else {
                result.append(String(format: "%%%02X", byte))
            }
        }
        return result
    }

    static func unescape(_ string: String) -> String {
        let spaced = string.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
