/// The `role` of a user on the wire.
enum UserRole: String, Sendable {
    case user
    case admin
}
