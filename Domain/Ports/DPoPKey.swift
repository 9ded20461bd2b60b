import Foundation

/// The key a sender-constrained session proves possession of (DPoP, RFC 9449): one P-256 key pair
/// per session, kept with the session in the vault, so every process that loads the session signs
/// with the same key and a refreshed session keeps its binding.
///
/// A proof is a short-lived JWT over one request (its method and address, the access token it
/// carries, the server's latest nonce); a token bound to the key is worth nothing without one.
package protocol DPoPKey: Sendable {
    /// The public key as a JWK (RFC 7517): what every proof carries in its header.
    var publicJWK: [String: String] { get }

    /// The key's RFC 7638 thumbprint (base64url SHA-256): what a provider binds tokens to
    /// (`cnf.jkt`) and what a pushed authorization request names (`dpop_jkt`). Safe to show.
    var thumbprint: String { get }

    /// The private key's bytes, for the vault and nothing else: never logged, printed or sent.
    var privateKeyRepresentation: Data { get }

    /// A proof for one request (RFC 9449 §4.2).
    /// - Parameters:
    ///   - method: the request's method (`htm`).
    ///   - url: the request's address; the proof names it without query and fragment (`htu`).
    ///   - accessToken: the token the request carries, hashed into `ath` (resource requests only).
    ///   - nonce: the server's latest `DPoP-Nonce`, when it gave one.
    ///   - now: the proof's `iat`.
    /// - Returns: the compact JWS for the `DPoP` header.
    /// - Throws: when the proof cannot be signed.
    func proof(method: String, url: URL, accessToken: String?, nonce: String?, at now: Date) async throws -> String
}

/// Makes DPoP keys: a new one for each sign-in that binds its tokens, and the one a stored
/// session is bound to, from the bytes the vault kept.
package protocol DPoPKeyFactory: Sendable {
    /// A new key pair.
    func newKey() -> any DPoPKey
    /// The key pair whose private key is `privateKeyRepresentation`.
    /// - Throws: `RiderError.storage(_:)` when the bytes are not such a key.
    func key(restoring privateKeyRepresentation: Data) throws -> any DPoPKey
}
