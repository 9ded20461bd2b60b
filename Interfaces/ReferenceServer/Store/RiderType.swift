/// The `rider_type` of a user on the wire.
enum RiderType: String, Sendable, CaseIterable {
    case mentor
    case learner
}
