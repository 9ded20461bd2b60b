import Foundation

/// What in an HTTP message is a secret, and how to replace it: credentials headers and cookies,
/// and the token, password and client-secret fields of JSON bodies, form bodies and query strings.
///
/// One rule for everything that prints or stores a message — a test double's failure report, a
/// recording of a session — so none of them can forget a field the others leave out.
package enum SecretRedaction {
    /// Replaces one secret: given the field's name and its value as text, returns what to put
    /// in its place.
    package typealias Replacement = (_ field: String, _ value: String) -> String

    private static let secretHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// Whether a header carries credentials: `Authorization`, `Proxy-Authorization`, `Cookie`,
    /// `Set-Cookie`, or any header whose name speaks of a token, secret, password or API key.
    /// - Parameter name: the header's name, in any case.
    /// - Returns: `true` when its value must not be printed or stored.
    package static func isSecretHeader(_ name: String) -> Bool {
        let name = name.lowercased()
        return secretHeaders.contains(name) || ["token", "secret", "password", "api-key", "apikey"].contains {
            name.contains($0)
        }
    }

    /// Whether a JSON key, form field or query parameter holds a secret: `token`, `*_token`
    /// (`access_token`, `refresh_token`, `id_token`), the codes a provider hands out (`code`,
    /// `device_code`), what ties a browser sign-in to its answer (`code_verifier`, `state`,
    /// `nonce`), `*password*`, `*secret*` (`client_secret`).
    /// - Parameter name: the key or field name.
    /// - Returns: `true` when its value must not be printed or stored.
    package static func isSecretField(_ name: String) -> Bool {
        let name = name.lowercased()
        return isTokenField(name) || signInSecrets.contains(name) || name.contains("password") || name.contains("secret")
    }

    /// Whether a field holds a token a client sends back later (`token`, `*_token`, and the
    /// provider's `code` and `device_code`), as opposed to a password, client secret or PKCE
    /// verifier that only ever goes out.
    /// - Parameter name: the key or field name.
    /// - Returns: `true` for a token field.
    package static func isTokenField(_ name: String) -> Bool {
        let name = name.lowercased()
        return name == "token" || name.hasSuffix("_token") || name == "code" || name == "device_code"
    }

    /// A browser sign-in's own secrets (RFC 7636, RFC 6749 §10.12, OpenID Connect's nonce).
    private static let signInSecrets: Set<String> = ["code_verifier", "state", "nonce"]

    /// A JSON document with the value of every secret field replaced, at any depth.
    ///
    /// Strings are handed to `replacement` as they are, other values as their JSON text; `null`
    /// is kept, as it holds nothing.
    /// - Parameters:
    ///   - body: the document.
    ///   - replacement: what each secret becomes.
    /// - Returns: the document with sorted keys and how many values were replaced, or `nil` when
    ///   `body` is not JSON.
    package static func redactingJSON(_ body: Data, replacement: Replacement) -> (data: Data, redacted: Int)? {
        guard let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else { return nil }
        var redacted = 0
        let result = redact(json, replacement: replacement, count: &redacted)
        guard let data = try? JSONSerialization.data(withJSONObject: result, options: jsonOptions) else { return nil }
        return (data, redacted)
    }

    /// Name/value pairs (a form body or a query) with the value of every secret field replaced.
    /// - Parameters:
    ///   - pairs: the fields in order.
    ///   - replacement: what each secret becomes.
    /// - Returns: the pairs in the same order and how many values were replaced.
    package static func redactingFields(_ pairs: [(String, String)],
                                       replacement: Replacement) -> (pairs: [(String, String)], redacted: Int) {
        var redacted = 0
        let result = pairs.map { name, value in
            guard isSecretField(name) else { return (name, value) }
            redacted += 1
            return (name, replacement(name, value))
        }
        return (result, redacted)
    }

    /// Whether a `Content-Type` is a form body (`application/x-www-form-urlencoded`).
    /// - Parameter contentType: the header's value, if any.
    /// - Returns: `true` for a form.
    package static func isForm(_ contentType: String?) -> Bool {
        contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true
    }

    private static let jsonOptions: JSONSerialization.WritingOptions = [.sortedKeys, .fragmentsAllowed,
                                                                         .withoutEscapingSlashes]

    private static func redact(_ json: Any, replacement: Replacement, count: inout Int) -> Any {
        switch json {
        case let object as [String: Any]:
            var result: [String: Any] = [:]
            // In key order, so a replacement that counts (a placeholder's number) always counts the same way.
            for (key, value) in object.sorted(by: { $0.key < $1.key }) {
                if isSecretField(key), let text = secretText(value) {
                    count += 1
                    result[key] = replacement(key, text)
                } else {
                    result[key] = redact(value, replacement: replacement, count: &count)
                }
            }
            return result
        case let array as [Any]:
            return array.map { redact($0, replacement: replacement, count: &count) }
        default:
            return json
        }
    }

    /// The value as text, or `nil` for `null`, which is left in place.
    private static func secretText(_ value: Any) -> String? {
        switch value {
        case let text as String:
            return text
        case is NSNull:
            return nil
        default:
            return (try? JSONSerialization.data(withJSONObject: value, options: jsonOptions))
                .map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
    }
}
