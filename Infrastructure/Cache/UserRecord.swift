import Foundation
import GRDB
import RiderDomain

/// One row of the `user` table. Holds only what the server shows other members.
struct UserRecord: Sendable, FetchableRecord {
    var id: String
    var email: String
    var displayName: String
    var role: String
    var riderType: String?
    var createdAt: Double?
    var storedAt: Double
    var entityTag: String?

    /// The columns `init(row:)` reads, ready for a `SELECT … FROM user`.
    static let selection = "user.id, user.email, user.display_name, user.role, user.rider_type, "
        + "user.created_at, user.stored_at, user.entity_tag"

    init(row: Row) throws {
        id = row["id"]
        email = row["email"]
        displayName = row["display_name"]
        role = row["role"]
        riderType = row["rider_type"]
        createdAt = row["created_at"]
        storedAt = row["stored_at"]
        entityTag = row["entity_tag"]
    }

    init(_ user: User, storedAt: Date, entityTag: EntityTag?) {
        id = user.id.rawValue
        email = user.email
        displayName = user.displayName
        role = user.role.rawValue
        riderType = user.riderType?.rawValue
        createdAt = user.createdAt?.timeIntervalSince1970
        self.storedAt = storedAt.timeIntervalSince1970
        self.entityTag = entityTag?.rawValue
    }

    /// The user as the domain knows it; an unknown rider type from a newer server reads as none.
    func toDomain() -> User {
        User(id: UserID(id), email: email, displayName: displayName, role: Role(rawValue: role),
             riderType: riderType.flatMap(RiderType.init(rawValue:)),
             createdAt: createdAt.map(Date.init(timeIntervalSince1970:)))
    }

    /// The row as a cached value, as read from the cache.
    func toCached() -> Cached<User> {
        Cached(value: toDomain(), storedAt: Date(timeIntervalSince1970: storedAt),
               entityTag: entityTag.map(EntityTag.init(rawValue:)))
    }

    /// Values for ``UserCacheQueries/upsert``, in its parameter order.
    var upsertArguments: StatementArguments {
        [id, email, displayName, role, riderType, createdAt, storedAt, entityTag]
    }
}
