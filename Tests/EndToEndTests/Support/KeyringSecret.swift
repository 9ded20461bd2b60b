import Foundation
import Testing

/// A keyring item's secret as docs/vault.md describes it: `riderkit:v2:` and the session's JSON in
/// base64url without padding. Decoded here by hand, as another program would, not by RiderKit.
enum KeyringSecret {
    /// The refresh token of the session in `secret` (what `secret-tool lookup` printed).
    static func refreshToken(in secret: String) throws -> String {
        let secret = secret.trimmingCharacters(in: .whitespacesAndNewlines)
        let tag = "riderkit:v2:"
        try #require(secret.hasPrefix(tag), "the keyring item holds a tagged secret: \(secret.prefix(12))…")
        var base64 = String(secret.dropFirst(tag.count))
            .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        let json = try #require(Data(base64Encoded: base64), "the secret is base64url")
        let session = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        return try #require(session["refresh_token"] as? String, "the session has a refresh token")
    }
}
