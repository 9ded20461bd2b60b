import Foundation

/// Checks an OpenID Connect id_token's signature (a compact JWS, RFC 7515) against the
/// provider's published keys (a JSON Web Key Set, RFC 7517), with a well-kept JOSE library.
///
/// Only the signature: which claims the token must carry is the sign-in's business, decided in
/// the Application layer where the issuer, client and nonce are known.
package protocol IDTokenSignatureVerifier: Sendable {
    /// The token's payload, once its signature verified with a key of `keySet`.
    /// - Parameters:
    ///   - token: the compact JWS.
    ///   - keySet: the provider's JWKS document, as fetched.
    /// - Returns: the payload's JSON.
    /// - Throws: ``IDTokenSignatureFailure``.
    func verifiedPayload(of token: String, keySet: Data) async throws -> Data
}

/// Why an id_token's signature was not accepted.
package enum IDTokenSignatureFailure: Error, Hashable, Sendable {
    /// The token names a key (`kid`) the set does not hold: the provider may have rotated its keys.
    case unknownKey
    /// The signature does not verify.
    case invalidSignature
    /// An algorithm RiderKit does not accept for id_tokens (`none`, a shared-secret `HS256`, …).
    case unsupportedAlgorithm
    /// Not a compact JWS.
    case malformedToken
    /// The key set cannot be read.
    case unusableKeySet
}
