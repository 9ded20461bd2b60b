import Foundation

/// What the store remembers about an access or refresh token.
struct IssuedToken: Sendable {
    /// Index of the user the token belongs to.
    let userIndex: Int
    /// The token family: the password grant this token descends from, through any number of
    /// refreshes. Revoking a refresh token, or presenting a rotated one again, ends the family.
    let grantID: UInt64
    /// When it was issued, in the store's own count: the smallest is dropped first when the
    /// store holds too many tokens.
    let sequence: UInt64
    var expiresAt: Date
    let scope: String?
    /// The RFC 7638 thumbprint of the DPoP key (RFC 9449) the token is bound to: a bound token
    /// is good only with a proof signed by that key. `nil` for a bearer token.
    let jkt: String?
    /// RFC 8707: for an access token, the one resource it is good at (its audience); for a
    /// refresh token, the resource its grant was restricted to. `nil`: unrestricted, as tokens
    /// asked for without `resource` have always been (they work at every resource).
    var resource: String? = nil
}
