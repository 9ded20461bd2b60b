/// Whether the reference server takes DPoP proofs (RFC 9449) and binds tokens to their keys.
package enum DPoPMode: String, Sendable, CaseIterable {
    /// No DPoP: a `DPoP` header is ignored, every token is a bearer token, and the metadata
    /// says nothing of it. The default, so clients that predate DPoP see the server unchanged.
    case off
    /// Proofs are taken: a token request with one gets tokens bound to its key (`token_type`
    /// `DPoP`), one without gets bearer tokens. The metadata lists ES256 in
    /// `dpop_signing_alg_values_supported`.
    case supported
    /// As ``supported``, and a token request without a proof is refused
    /// (`400 invalid_dpop_proof`), so every token the server issues is bound.
    case required
}
