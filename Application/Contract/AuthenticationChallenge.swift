import Foundation
import RiderDomain

/// One challenge of a `WWW-Authenticate` header (RFC 9110 §11.6.1): a scheme (`Bearer`, `DPoP`,
/// `Basic`, …) with either a `token68` or a list of auth-params.
///
/// What a resource or a token endpoint says in a `401` is read here and nowhere else: the
/// `resource_metadata` of RFC 9728 §5.1, `scope` and `error` (RFC 6750 §3), the DPoP `algs` and
/// `use_dpop_nonce` (RFC 9449 §7.1, §9). Scheme and parameter names compare without case, as the
/// grammar says; values are kept as sent (a quoted-string unescaped). Every value came from a
/// server, so it is untrusted text.
package struct AuthenticationChallenge: Hashable, Sendable {
    /// One `name=value` auth-param; `name` lower-cased.
    package struct Parameter: Hashable, Sendable {
        package var name: String
        package var value: String

        /// - Parameters:
        ///   - name: the name, lower-cased.
        ///   - value: the value, unescaped.
        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The auth-scheme as the server spelled it.
    package var scheme: String
    /// The `token68` form of the credentials' challenge (`Negotiate abc==`), when it has one.
    package var token68: String?
    /// The auth-params in order (names lower-cased; each at most once, RFC 9110 §11.2).
    package var parameters: [Parameter]

    /// - Parameters:
    ///   - scheme: the auth-scheme.
    ///   - token68: the token68, if any.
    ///   - parameters: the auth-params, names lower-cased.
    package init(scheme: String, token68: String? = nil, parameters: [Parameter] = []) {
        self.scheme = scheme
        self.token68 = token68
        self.parameters = parameters
    }

    /// Whether this challenge's scheme is `scheme`, ignoring case.
    package func isScheme(_ scheme: String) -> Bool {
        self.scheme.lowercased() == scheme.lowercased()
    }

    /// The value of the auth-param `name` (any case), or `nil`.
    package subscript(_ name: String) -> String? {
        let name = name.lowercased()
        return parameters.first { $0.name == name }?.value
    }

    /// `resource_metadata` (RFC 9728 §5.1): where the protected resource's metadata is.
    package var resourceMetadata: String? { self["resource_metadata"] }
    /// `scope` (RFC 6750 §3): the scopes the resource wants, space-separated.
    package var scope: String? { self["scope"] }
    /// `error` (RFC 6750 §3.1, RFC 9449 §7.1): `invalid_token`, `insufficient_scope`, `use_dpop_nonce`, …
    package var error: String? { self["error"] }
    /// `error_description`: the server's words, for a person.
    package var errorDescription: String? { self["error_description"] }
    /// `algs` (RFC 9449 §7.1): the DPoP proof algorithms the resource takes, space-separated.
    package var algorithms: [String] {
        self["algs"].map { $0.split(separator: " ").map(String.init) } ?? []
    }

    /// Why a header value is not a challenge list, and where (a count of UTF-8 bytes).
    package struct SyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
        package enum Reason: Hashable, Sendable {
            /// Something other than a token where a scheme or parameter name belongs.
            case expectedToken
            /// A parameter name not followed by `=`.
            case expectedEquals
            /// `=` followed by neither a token nor a quoted-string.
            case expectedValue
            /// A quoted-string without its closing quote.
            case unterminatedQuotedString
            /// A control character (CR, LF, NUL, …) inside a quoted-string.
            case controlCharacter
            /// A parameter named twice in one challenge (RFC 9110 §11.2 forbids it).
            case duplicateParameter(String)
            /// Text after a value or token68 that is not a `,`.
            case unexpectedText
        }

        package var reason: Reason
        package var offset: Int

        package var description: String {
            let what = switch reason {
            case .expectedToken: "a scheme or parameter name was expected"
            case .expectedEquals: "a parameter name is not followed by '='"
            case .expectedValue: "a parameter has neither a token nor a quoted-string value"
            case .unterminatedQuotedString: "a quoted-string is not closed"
            case .controlCharacter: "a quoted-string holds a control character"
            case .duplicateParameter(let name): "the parameter '\(ProblemMapping.clip(name))' is given twice in one challenge"
            case .unexpectedText: "text follows a value without a ','"
            }
            return "\(what) (at byte \(offset))"
        }
    }

    /// Every challenge of one `WWW-Authenticate` field value, strictly by the grammar.
    /// - Parameter header: the field value.
    /// - Returns: the challenges in order (none for an empty or all-commas value).
    /// - Throws: ``SyntaxError`` at the first byte the grammar does not allow.
    package static func parse(_ header: String) throws(SyntaxError) -> [AuthenticationChallenge] {
        var parser = ChallengeParser(header)
        let challenges = parser.challenges()
        if let error = parser.error { throw error }
        return challenges
    }

    /// Every challenge `response` carries, across all its `WWW-Authenticate` fields, in order. A
    /// field that breaks the grammar contributes the challenges before the break, so one
    /// malformed challenge does not hide a good one before it; this never throws.
    /// - Parameter response: the response.
    /// - Returns: the challenges.
    /// The `Bearer` or `DPoP` challenge of `response` whose `error` is `insufficient_scope`
    /// (RFC 6750 §3.1, RFC 9449 §7.1), when there is one: its `scope` is what the resource wants.
    package static func insufficientScope(in response: HTTPResponse) -> AuthenticationChallenge? {
        challenges(in: response).first {
            ($0.isScheme("Bearer") || $0.isScheme("DPoP")) && $0.error == "insufficient_scope"
        }
    }

    package static func challenges(in response: HTTPResponse) -> [AuthenticationChallenge] {
        response.headers.fields.filter { $0.name.lowercased() == "www-authenticate" }.flatMap { field in
            var parser = ChallengeParser(field.value)
            return parser.challenges()
        }
    }
}

/// The RFC 9110 §11.6.1 grammar over a field value's UTF-8 bytes:
///
///     challenge   = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
///     auth-param  = token BWS "=" BWS ( token / quoted-string )
///     token68     = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
///
/// A comma separates both challenges and auth-params; after one, a `token BWS "="` continues the
/// current challenge and anything else starts the next. Empty list elements are skipped (§5.6.1).
private struct ChallengeParser {
    private let bytes: [UInt8]
    private var index = 0
    /// The first violation; parsing stops there.
    private(set) var error: AuthenticationChallenge.SyntaxError?

    init(_ text: String) { bytes = Array(text.utf8) }

    /// The challenges up to the end, or up to the first violation (the challenge it interrupted
    /// is dropped).
    mutating func challenges() -> [AuthenticationChallenge] {
        var result: [AuthenticationChallenge] = []
        while error == nil {
            skipSeparators()
            guard index < bytes.count else { break }
            guard let challenge = challenge() else { break }
            result.append(challenge)
        }
        return result
    }

    private mutating func challenge() -> AuthenticationChallenge? {
        guard let scheme = token() else { return fail(.expectedToken) }
        var challenge = AuthenticationChallenge(scheme: scheme)
        guard index < bytes.count, bytes[index] != UInt8(ascii: ",") else { return challenge }
        guard bytes[index] == UInt8(ascii: " ") else { return fail(.unexpectedText) }
        skipWhitespace()
        guard index < bytes.count, bytes[index] != UInt8(ascii: ",") else { return challenge }
        if let token68 = token68() {
            challenge.token68 = token68
            return challenge
        }
        repeat {
            guard let parameter = parameter() else { return nil }
            guard !challenge.parameters.contains(where: { $0.name == parameter.name }) else {
                return fail(.duplicateParameter(parameter.name))
            }
            challenge.parameters.append(parameter)
            skipWhitespace()
            guard index < bytes.count else { break }
            guard bytes[index] == UInt8(ascii: ",") else { return fail(.unexpectedText) }
            skipSeparators()
        } while startsParameter()
        return challenge
    }

    /// A token68 when the bytes from here to the next `,` (or the end) are one, else `nil` with
    /// nothing consumed.
    private mutating func token68() -> String? {
        var end = index
        while end < bytes.count, Self.isToken68(bytes[end]) { end += 1 }
        guard end > index else { return nil }
        var padded = end
        while padded < bytes.count, bytes[padded] == UInt8(ascii: "=") { padded += 1 }
        var after = padded
        while after < bytes.count, Self.isWhitespace(bytes[after]) { after += 1 }
        guard after == bytes.count || bytes[after] == UInt8(ascii: ",") else { return nil }
        let value = String(decoding: bytes[index..<padded], as: UTF8.self)
        index = after
        return value
    }

    private mutating func parameter() -> AuthenticationChallenge.Parameter? {
        guard let name = token() else { return fail(.expectedToken) }
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { return fail(.expectedEquals) }
        index += 1
        skipWhitespace()
        guard index < bytes.count else { return fail(.expectedValue) }
        if bytes[index] == UInt8(ascii: "\"") {
            guard let value = quotedString() else { return nil }
            return .init(name: name.lowercased(), value: value)
        }
        guard let value = token() else { return fail(.expectedValue) }
        return .init(name: name.lowercased(), value: value)
    }

    /// Whether what follows is `token BWS "="`: another auth-param of the same challenge.
    private func startsParameter() -> Bool {
        var probe = index
        while probe < bytes.count, Self.isTokenCharacter(bytes[probe]) { probe += 1 }
        guard probe > index else { return false }
        while probe < bytes.count, Self.isWhitespace(bytes[probe]) { probe += 1 }
        return probe < bytes.count && bytes[probe] == UInt8(ascii: "=")
    }

    private mutating func token() -> String? {
        let start = index
        while index < bytes.count, Self.isTokenCharacter(bytes[index]) { index += 1 }
        return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    /// `DQUOTE *( qdtext / quoted-pair ) DQUOTE`, unescaped (RFC 9110 §5.6.4).
    private mutating func quotedString() -> String? {
        index += 1
        var value: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: value, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { return fail(.unterminatedQuotedString) }
                let escaped = bytes[index + 1]
                guard !Self.isControl(escaped) else { return fail(.controlCharacter) }
                value.append(escaped)
                index += 2
            default:
                guard !Self.isControl(byte) else { return fail(.controlCharacter) }
                value.append(byte)
                index += 1
            }
        }
        return fail(.unterminatedQuotedString)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
    }

    /// Whitespace and commas: the separators of the list and its empty elements.
    private mutating func skipSeparators() {
        while index < bytes.count, Self.isWhitespace(bytes[index]) || bytes[index] == UInt8(ascii: ",") { index += 1 }
    }

    private mutating func fail<T>(_ reason: AuthenticationChallenge.SyntaxError.Reason) -> T? {
        error = .init(reason: reason, offset: index)
        return nil
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// Controls but HTAB (quoted-strings may hold tabs), and DEL.
    private static func isControl(_ byte: UInt8) -> Bool { (byte < 0x20 && byte != 0x09) || byte == 0x7F }

    /// `tchar` (RFC 9110 §5.6.2).
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    private static func isToken68(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "-._~+/".utf8.contains(byte)
        }
    }
}
