import Foundation

/// Reads the `exp` claim of an access token that happens to be a JWT (RFC 7519 §4.1.4).
///
/// Used only when the token response says nothing about expiry. The signature is not checked:
/// the client does not trust the claim, it only avoids sending a token it knows is stale; the
/// server stays the judge.
enum JWTExpiry {
    /// The expiry instant, or `nil` when the token is not a JWT with a numeric `exp`.
    static func expiry(ofToken token: String) -> Date? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1].count < 8192, let payload = decodeBase64URL(parts[1]),
              let object = try? JSONSerialization.jsonObject(with: payload) as? [String: Any],
              let exp = object["exp"] as? NSNumber
        else { return nil }
        let seconds = exp.doubleValue
        guard seconds.isFinite, seconds > 0 else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    private static func decodeBase64URL(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
