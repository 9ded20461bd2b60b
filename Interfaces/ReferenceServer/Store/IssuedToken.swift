import Foundation

/// What the store remembers about an access or refresh token.
struct IssuedToken: Sendable {
    /// Index of the user the token belongs to.
    let userIndex: Int
    /// The password grant this token descends from; revoking a refresh token ends the whole grant.
    let grantID: UInt64
    var expiresAt: Date
    let scope: String?
}
