import Foundation
import RiderDomain

/// A user on the wire.
struct UserDTO: Decodable, Sendable {
    var id: String
    var email: String
    var displayName: String
    var role: String?
    var riderType: String?
    var createdAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, email, role
        case displayName = "display_name"
        case riderType = "rider_type"
        case createdAt = "created_at"
    }

    func toDomain() -> User {
        User(
            id: UserID(id),
            email: email,
            displayName: displayName,
            role: role.map(Role.init(rawValue:)) ?? .user,
            riderType: riderType.flatMap(RiderType.init(rawValue:)),
            createdAt: createdAt
        )
    }
}
