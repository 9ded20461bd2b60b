/// The tokens one successful grant hands out.
struct TokenPair: Sendable {
    let accessToken: String
    let refreshToken: String
    /// Whole seconds the access token lives.
    let expiresIn: Int
    let user: ReferenceUser
    let scope: String?
}
