/// The tokens one successful grant hands out.
struct TokenPair: Sendable {
    let accessToken: String
    /// `nil` for the client credentials grant, which issues none (RFC 6749 §4.4.3).
    var refreshToken: String?
    /// Whole seconds the access token lives; `nil` when only the token's JWT `exp` says it.
    let expiresIn: Int?
    let user: ReferenceUser
    let scope: String?
    /// The thumbprint of the DPoP key both tokens are bound to; `nil` for bearer tokens.
    let jkt: String?
    /// The OpenID Connect id_token, for grants that asked for `openid` with a client id.
    var idToken: String?
}
