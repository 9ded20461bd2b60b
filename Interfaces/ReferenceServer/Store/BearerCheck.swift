/// The verdict on an access token.
enum BearerCheck: Sendable {
    /// Issued and live; `jkt` names the DPoP key it is bound to, `nil` for a bearer token.
    case valid(ReferenceUser, jkt: String?)
    case expired
    /// Never issued, or revoked; the server does not say which.
    case unknown
}
