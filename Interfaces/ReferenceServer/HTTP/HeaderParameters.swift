import Foundation

/// Splits a header value of the form `essence; name=value; name="quoted value"` (RFC 9110 §5.6.6),
/// as `Content-Type` and `Content-Disposition` are written.
enum HeaderParameters {
    /// The lowercased essence and the parameters by lowercased name; quoted values are unquoted
    /// (`\"` stands for `"`). A parameter without `=` is ignored.
    static func split(_ header: String) -> (essence: String, parameters: [String: String]) {
        var pieces: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in header {
            if escaped {
                current.append(character)
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == ";" && !quoted {
                pieces.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        pieces.append(current)
        let essence = pieces[0].trimmingCharacters(in: .whitespaces).lowercased()
        var parameters: [String: String] = [:]
        for piece in pieces.dropFirst() {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            let name = piece[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            parameters[name] = piece[piece.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        }
        return (essence, parameters)
    }
}
