import Foundation
import JWTKit

/// Signs the server's OpenID Connect id_tokens (Core §2) with an ES256 key made at start and
/// publishes its public half as a JWKS (RFC 7517) at `/jwks.json`.
///
/// Test hooks rotate the key (the set keeps the previous key, as providers do while tokens
/// signed with it are still about) and spoil the next token in one chosen way, so clients'
/// refusals can be tested against a real server.
actor IDTokenSigner {
    /// How a test spoils the next id_token.
    enum Fault: String, Sendable, CaseIterable {
        /// Signed with a key that is not in the set, under a kid that is.
        case signature
        /// For another client.
        case audience
        /// With another nonce.
        case nonce
        /// Expired an hour ago.
        case expired
        /// From another issuer.
        case issuer
    }

    private struct SigningKey {
        let kid: String
        let key: ES256PrivateKey
    }

    private var current: SigningKey
    private var previous: SigningKey?
    private var fault: Fault?
    /// How long an id_token lives.
    static let lifetime: TimeInterval = 600

    init() {
        current = SigningKey(kid: Self.newKid(), key: ES256PrivateKey())
    }

    /// The id_token for `user` signed in by `audience` (the client id), carrying `nonce` when the
    /// authorization request sent one.
    func sign(user: ReferenceUser, audience: String, nonce: String?, issuer: String, now: Date) async throws -> String {
        var claims = Claims(iss: issuer, sub: user.id, aud: audience, exp: now.addingTimeInterval(Self.lifetime),
                            iat: now, nonce: nonce, email: user.email, name: user.displayName)
        var signingKey = current
        switch fault {
        case .signature?: signingKey = SigningKey(kid: current.kid, key: ES256PrivateKey())
        case .audience?: claims.aud = "someone-else"
        case .nonce?: claims.nonce = "not-the-nonce"
        case .expired?: claims.exp = now.addingTimeInterval(-3600)
        case .issuer?: claims.iss = "https://evil.example"
        case nil: break
        }
        fault = nil
        let keys = await JWTKeyCollection().add(ecdsa: signingKey.key, kid: JWKIdentifier(string: signingKey.kid))
        return try await keys.sign(claims, kid: JWKIdentifier(string: signingKey.kid))
    }

    /// The public keys, newest first.
    func keySet() -> KeySetBody {
        KeySetBody(keys: [current, previous].compactMap { $0 }.compactMap { key in
            guard let (x, y) = key.key.publicKey.parameters else { return nil }
            return KeySetBody.Key(kid: key.kid, x: x, y: y)
        })
    }

    /// A new signing key; the old one stays published, the one before it goes.
    func rotate() {
        previous = current
        current = SigningKey(kid: Self.newKid(), key: ES256PrivateKey())
    }

    func spoilNext(_ fault: Fault) {
        self.fault = fault
    }

    private static func newKid() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<8).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// OpenID Connect Core §2's claims, and the two the userinfo endpoint also tells.
    struct Claims: JWTPayload {
        var iss: String
        var sub: String
        var aud: String
        var exp: Date
        var iat: Date
        var nonce: String?
        var email: String
        var name: String

        func verify(using algorithm: some JWTAlgorithm) throws {}

        enum CodingKeys: String, CodingKey { case iss, sub, aud, exp, iat, nonce, email, name }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(iss, forKey: .iss)
            try container.encode(sub, forKey: .sub)
            try container.encode(aud, forKey: .aud)
            // NumericDate (RFC 7519 §2): seconds, whatever the encoder's date strategy.
            try container.encode(Int(exp.timeIntervalSince1970), forKey: .exp)
            try container.encode(Int(iat.timeIntervalSince1970), forKey: .iat)
            try container.encodeIfPresent(nonce, forKey: .nonce)
            try container.encode(email, forKey: .email)
            try container.encode(name, forKey: .name)
        }
    }
}

/// `GET /jwks.json` (RFC 7517 §5): P-256 public keys for ES256.
struct KeySetBody: Encodable, Sendable {
    struct Key: Encodable, Sendable {
        let kty = "EC"
        let crv = "P-256"
        let alg = "ES256"
        let use = "sig"
        let kid: String
        let x: String
        let y: String
    }
    let keys: [Key]
}
