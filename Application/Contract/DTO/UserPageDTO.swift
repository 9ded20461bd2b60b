import Foundation
import RiderDomain

/// A page of users on the wire.
struct UserPageDTO: Decodable, Sendable {
    var users: [UserDTO]
    var total: Int
    var page: Int
    var limit: Int
    var hasNext: Bool

    enum CodingKeys: String, CodingKey {
        case users, total, page, limit
        case hasNext = "has_next"
    }

    func toDomain() -> UserPage {
        UserPage(users: users.map { $0.toDomain() }, total: total, page: page, limit: limit, hasNext: hasNext)
    }
}
