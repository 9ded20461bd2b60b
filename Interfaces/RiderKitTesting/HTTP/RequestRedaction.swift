import Foundation
import RiderApplication
import RiderDomain

/// How a test double prints a request: every secret — credentials headers, cookies, tokens,
/// passwords and client secrets in JSON or form bodies — replaced by `<redacted>`, so a failing
/// test's log is as safe to share as RiderKit's own output.
enum RequestRedaction {
    static let placeholder = "<redacted>"

    private static let secretHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// Whether a JSON key or form field holds a secret: `token`, `*_token`, `*password*`, `*secret*`.
    /// - Parameter name: the key or field name.
    /// - Returns: `true` when its value must not be printed.
    static func isSecretField(_ name: String) -> Bool {
        let name = name.lowercased()
        return name == "token" || name.hasSuffix("_token") || name.contains("password") || name.contains("secret")
    }

    /// The request line, its headers and its body, one per line, secrets redacted.
    /// - Parameter request: the request to print.
    /// - Returns: the lines.
    static func lines(for request: HTTPRequest) -> [String] {
        var lines = ["\(request.method) \(request.url.absoluteString)"]
        for field in request.headers {
            let value = secretHeaders.contains(field.name.lowercased()) ? placeholder : field.value
            lines.append("  \(field.name): \(value)")
        }
        if let body = request.body, !body.isEmpty {
            lines.append("  body: \(text(of: body, contentType: request.headers["Content-Type"]))")
        }
        return lines
    }

    /// A body as text with secret values replaced; a body that is neither JSON nor a form is
    /// shown by size only, since nothing in it can be told apart from a secret.
    static func text(of body: Data, contentType: String?) -> String {
        if let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
           let redacted = try? JSONSerialization.data(withJSONObject: redact(json),
                                                      options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]) {
            return String(decoding: redacted, as: UTF8.self)
        }
        if contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true,
           let form = String(data: body, encoding: .utf8) {
            let pairs = FormEncoding.decode(form).map { name, value in (name, isSecretField(name) ? placeholder : value) }
            return FormEncoding.encode(pairs)
        }
        return "<\(body.count) bytes\(contentType.map { " of \($0)" } ?? "")>"
    }

    private static func redact(_ json: Any) -> Any {
        switch json {
        case let object as [String: Any]:
            return Dictionary(uniqueKeysWithValues: object.map { key, value in
                (key, isSecretField(key) ? placeholder : redact(value))
            })
        case let array as [Any]:
            return array.map(redact)
        default:
            return json
        }
    }
}
