import Foundation
import RiderDomain

/// A user on the wire.
package struct UserDTO: Decodable, Sendable {
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

    package func toDomain() -> User {
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

extension UserDTO: FlatJSONDecodable {
    /// The user as `JSONDecoder` would read it from `object`, or `nil` to leave the body to it (a
    /// member missing or of another type, a date its parser does not accept).
    package init?(flat object: FlatJSONObject) {
        var id: String?, email: String?, displayName: String?
        var role: String?, riderType: String?, createdAt: Date?
        for (key, value) in object.members {
            switch key {
            case "id": guard case .string(let text) = value else { return nil }; id = text
            case "email": guard case .string(let text) = value else { return nil }; email = text
            case "display_name": guard case .string(let text) = value else { return nil }; displayName = text
            case "role": guard let text = value.optionalString else { return nil }; role = text
            case "rider_type": guard let text = value.optionalString else { return nil }; riderType = text
            case "created_at":
                guard let text = value.optionalString else { return nil }
                if let text {
                    guard let date = ContractCoding.parseDate(text) else { return nil }
                    createdAt = date
                }
            default: continue
            }
        }
        guard let id, let email, let displayName else { return nil }
        self.init(id: id, email: email, displayName: displayName, role: role, riderType: riderType, createdAt: createdAt)
    }
}
