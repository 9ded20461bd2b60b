/// The contract's `User`.
struct UserBody: Encodable, Sendable {
    let id: String
    let email: String
    let displayName: String
    let role: String
    let riderType: String
    let createdAt: String

    init(_ user: ReferenceUser) {
        id = user.id
        email = user.email
        displayName = user.displayName
        role = user.role.rawValue
        riderType = user.riderType.rawValue
        createdAt = WireCoding.timestamp(user.createdAt)
    }

    enum CodingKeys: String, CodingKey {
        case id, email, role
        case displayName = "display_name"
        case riderType = "rider_type"
        case createdAt = "created_at"
    }
}
