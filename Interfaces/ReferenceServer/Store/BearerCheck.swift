/// The verdict on a bearer token.
enum BearerCheck: Sendable {
    case valid(ReferenceUser)
    case expired
    /// Never issued, or revoked; the server does not say which.
    case unknown
}
