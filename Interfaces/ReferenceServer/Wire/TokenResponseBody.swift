/// The token endpoint's success body (RFC 6749 §5.1 plus `user_id` and `role`).
struct TokenResponseBody: Encodable, Sendable {
    let accessToken: String
    /// `DPoP` for tokens bound to a proof's key (RFC 9449 §5), else `Bearer`.
    let tokenType: String
    /// Left out (not `null`) for JWT access tokens.
    let expiresIn: Int?
    let refreshToken: String?
    let userID: String
    let role: String
    let scope: String?
    let idToken: String?

    init(_ pair: TokenPair) {
        accessToken = pair.accessToken
        tokenType = pair.jkt == nil ? "Bearer" : "DPoP"
        expiresIn = pair.expiresIn
        refreshToken = pair.refreshToken
        userID = pair.user.id
        role = pair.user.role.rawValue
        scope = pair.scope
        idToken = pair.idToken
    }

    enum CodingKeys: String, CodingKey {
        case role, scope
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case userID = "user_id"
        case idToken = "id_token"
    }
}
