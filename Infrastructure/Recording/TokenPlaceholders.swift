import Crypto
import Foundation
import RiderDomain

/// The stable stand-ins of a recording's secrets: each distinct token becomes
/// `redacted-access-token-1`, `redacted-refresh-token-1`, `redacted-access-token-2`… in the order
/// they were first seen, wherever it appears again (a later command's `Authorization` header, a
/// revocation's `token` field); passwords and client secrets become `redacted-password`,
/// `redacted-client-secret`.
///
/// A placeholder is a usable bearer token (visible ASCII), so a replayed client stores it and
/// sends it back as it did the real one. To know a token again in a later process the book keeps
/// a salted SHA-256 digest of it (`.placeholders.json` in the recording), never the token.
struct TokenPlaceholders: Codable, Sendable, Equatable {
    /// Random bytes, base64, so a digest cannot be looked up in a table of known tokens.
    private(set) var salt: String
    private(set) var entries: [Entry]

    struct Entry: Codable, Sendable, Equatable {
        var digest: String
        var placeholder: String
    }

    /// An empty book with a fresh salt.
    init() {
        salt = Data((0..<16).map { _ in UInt8.random(in: .min ... .max) }).base64EncodedString()
        entries = []
    }

    /// What replaces the secret `value` of `field` (`access_token`, `password`, …).
    ///
    /// Tokens get a numbered placeholder, the same one every time the same token comes back; an
    /// empty value stays empty (it hides nothing, and means "no token").
    mutating func placeholder(for value: String, field: String) -> String {
        let kind = field.lowercased().replacingOccurrences(of: "_", with: "-")
        guard SecretRedaction.isTokenField(field) else { return "redacted-\(kind)" }
        return placeholder(forToken: value, kind: kind)
    }

    /// The numbered placeholder of `token`, seen as a `kind` (`access-token`) when it is new.
    mutating func placeholder(forToken token: String, kind: String) -> String {
        guard !token.isEmpty else { return token }
        let digest = digest(of: token)
        if let known = entries.first(where: { $0.digest == digest }) { return known.placeholder }
        let prefix = "redacted-\(kind)-"
        let number = entries.filter { $0.placeholder.hasPrefix(prefix) }.count + 1
        let placeholder = prefix + String(number)
        entries.append(Entry(digest: digest, placeholder: placeholder))
        return placeholder
    }

    private func digest(of token: String) -> String {
        SHA256.hash(data: Data((salt + token).utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
