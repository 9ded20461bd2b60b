import Foundation
import RiderApplication
import RiderDomain

/// How a test double prints a request: every secret — credentials headers, cookies, tokens,
/// passwords and client secrets in JSON or form bodies — replaced by `<redacted>`, so a failing
/// test's log is as safe to share as RiderKit's own output. What counts as a secret is
/// ``SecretRedaction``'s rule, the one RiderKit's recordings follow too.
enum RequestRedaction {
    static let placeholder = "<redacted>"

    /// The request line, its headers and its body, one per line, secrets redacted.
    /// - Parameter request: the request to print.
    /// - Returns: the lines.
    static func lines(for request: HTTPRequest) -> [String] {
        var lines = ["\(request.method) \(request.url.absoluteString)"]
        for field in request.headers {
            let value = SecretRedaction.isSecretHeader(field.name) ? placeholder : field.value
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
        if let json = SecretRedaction.redactingJSON(body, replacement: { _, _ in placeholder }) {
            return String(decoding: json.data, as: UTF8.self)
        }
        if SecretRedaction.isForm(contentType), let form = String(data: body, encoding: .utf8) {
            return FormEncoding.encode(SecretRedaction.redactingFields(FormEncoding.decode(form)) { _, _ in placeholder }.pairs)
        }
        return "<\(body.count) bytes\(contentType.map { " of \($0)" } ?? "")>"
    }
}
