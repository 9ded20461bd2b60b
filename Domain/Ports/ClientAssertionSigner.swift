import Foundation

/// Signs the client's assertions for `private_key_jwt` client authentication (RFC 7523 §2.2,
/// OpenID Connect Core §9): a short-lived JWT, issued by the client about itself, that proves it
/// holds the private key registered with the provider — so no shared secret crosses the network.
package protocol ClientAssertionSigner: Sendable {
    /// A new assertion: `iss` and `sub` the client id, `aud` the audience, a fresh `jti`, `iat`
    /// now and a short `exp`.
    /// - Parameters:
    ///   - clientID: the client's registered id.
    ///   - audience: who it is for: the provider's issuer, or the endpoint it is sent to.
    ///   - now: the assertion's `iat`.
    /// - Returns: the compact JWS, for `client_assertion`.
    /// - Throws: `RiderError.invalidConfiguration(_:)` when the key cannot be read or used.
    func assertion(clientID: String, audience: String, now: Date) async throws -> String
}
