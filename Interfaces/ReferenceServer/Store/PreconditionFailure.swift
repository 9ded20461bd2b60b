/// `If-Match` did not match; carries the tag the client should have sent.
struct PreconditionFailure: Error, Sendable {
    let currentEntityTag: String
}
