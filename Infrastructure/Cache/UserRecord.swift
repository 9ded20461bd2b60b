import Foundation
import GRDB
import GRDBSQLite
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

    /// The columns `init(row:)` reads, in its order: the start of every `SELECT` that fetches
    /// records.
    static let selection = "user.id, user.email, user.display_name, user.role, user.rider_type, "
        + "user.created_at, user.stored_at, user.entity_tag"

    /// Reads the columns by position: GRDB finds a column by name with a case-insensitive scan
    /// of the row's columns, which by name would be eight scans per record (the search page's
    /// share of this is in docs/performance.md).
    init(row: Row) throws {
        id = row[0]
        email = row[1]
        displayName = row[2]
        role = row[3]
        riderType = row[4]
        createdAt = row[5]
        storedAt = row[6]
        entityTag = row[7]
    }

    /// Reads the current row of a statement that selects ``selection``, straight through
    /// SQLite's C API (``UserLookup``: the lookup by id).
    init(columnsOf statement: SQLiteStatement) {
        id = Self.text(statement, 0) ?? ""
        email = Self.text(statement, 1) ?? ""
        displayName = Self.text(statement, 2) ?? ""
        role = Self.text(statement, 3) ?? ""
        riderType = Self.text(statement, 4)
        createdAt = sqlite3_column_type(statement, 5) == SQLITE_NULL ? nil : sqlite3_column_double(statement, 5)
        storedAt = sqlite3_column_double(statement, 6)
        entityTag = Self.text(statement, 7)
    }

    /// A text column, `nil` when NULL (the schema's `NOT NULL` columns never are).
    private static func text(_ statement: SQLiteStatement, _ column: Int32) -> String? {
        // The text first, then its length, as SQLite documents: the length is of that conversion.
        guard let bytes = sqlite3_column_text(statement, column) else { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
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
