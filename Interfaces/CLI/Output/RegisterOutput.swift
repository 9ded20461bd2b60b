/// What `rider register --json` prints.
struct RegisterOutput: Encodable, Sendable {
    let id: String
    let email: String
}
