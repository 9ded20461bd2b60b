/// The verdict on an access token.
enum BearerCheck: Sendable {
    /// Issued and live; `jkt` names the DPoP key it is bound to, `nil` for a bearer token.
    /// `audience` is the resource it was issued for (RFC 8707; `nil`: any), `scope` what it grants.
    case valid(ReferenceUser, jkt: String?, audience: String?, scope: String?)
    case expired
    /// Never issued, or revoked; the server does not say which.
    case unknown
}
