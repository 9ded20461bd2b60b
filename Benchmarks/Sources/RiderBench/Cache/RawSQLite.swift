import CSQLite3
import Foundation
import RiderKit

/// The floor: the same work through the raw sqlite3 C API, on a file with the same schema.
final class RawSQLite {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private var db: OpaquePointer?
    /// Prepared once, reused (reset) afterwards: the fastest the C API allows.
    private var statements: [String: OpaquePointer] = [:]
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(path: String) throws {
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
            throw Failure(description: "cannot open \(path)")
        }
        try exec("PRAGMA journal_mode=WAL")
        try exec("PRAGMA synchronous=NORMAL")  // as SQLiteUserCache sets it
        sqlite3_busy_timeout(db, 10_000)
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(db)
    }

    func exec(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw Failure(description: String(cString: sqlite3_errmsg(db)))
        }
    }

    /// The prepared statement for `sql`, reset and unbound.
    func prepare(_ sql: String) throws -> OpaquePointer? {
        if let cached = statements[sql] {
            sqlite3_reset(cached)
            sqlite3_clear_bindings(cached)
            return cached
        }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
              let statement else {
            throw Failure(description: String(cString: sqlite3_errmsg(db)))
        }
        statements[sql] = statement
        return statement
    }

    /// The same statement as `UserCacheQueries.upsert` in RiderInfrastructure.
    static let upsert = """
        INSERT INTO user (id, email, display_name, role, rider_type, created_at, stored_at, entity_tag, last_used)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(id) DO UPDATE SET
            entity_tag = CASE
                WHEN excluded.entity_tag IS NOT NULL THEN excluded.entity_tag
                WHEN email IS excluded.email AND display_name IS excluded.display_name AND role IS excluded.role
                    AND rider_type IS excluded.rider_type AND created_at IS excluded.created_at THEN entity_tag
                ELSE NULL
            END,
            email = excluded.email, display_name = excluded.display_name, role = excluded.role,
            rider_type = excluded.rider_type, created_at = excluded.created_at,
            stored_at = excluded.stored_at, last_used = excluded.last_used
        """

    /// Upserts every user in one transaction.
    func upsert(_ users: [User], at date: Date) throws {
        let statement = try prepare(Self.upsert)
        try exec("BEGIN IMMEDIATE")
        for (index, user) in users.enumerated() {
            sqlite3_bind_text(statement, 1, user.id.rawValue, -1, Self.transient)
            sqlite3_bind_text(statement, 2, user.email, -1, Self.transient)
            sqlite3_bind_text(statement, 3, user.displayName, -1, Self.transient)
            sqlite3_bind_text(statement, 4, user.role.rawValue, -1, Self.transient)
            if let type = user.riderType { sqlite3_bind_text(statement, 5, type.rawValue, -1, Self.transient) }
            else { sqlite3_bind_null(statement, 5) }
            sqlite3_bind_double(statement, 6, user.createdAt?.timeIntervalSince1970 ?? 0)
            sqlite3_bind_double(statement, 7, date.timeIntervalSince1970)
            sqlite3_bind_null(statement, 8)
            sqlite3_bind_int64(statement, 9, Int64(index + 1))
            guard sqlite3_step(statement) == SQLITE_DONE else {
                throw Failure(description: String(cString: sqlite3_errmsg(db)))
            }
            sqlite3_reset(statement)
        }
        try exec("COMMIT")
    }

    /// The first page as `SQLiteUserCache.search` finds it — count every match, then the users
    /// whose display name matches, then (when the page is not full) those matched through the
    /// email only, each group in rowid order — with the rows joined in SQL; returns the rows read.
    func search(_ query: String, limit: Int) throws -> Int {
        let everywhere = query.split { !$0.isLetter && !$0.isNumber }.map { "\"\($0)\"*" }.joined(separator: " ")
        let inName = "{display_name} : (\(everywhere))"
        let count = try prepare("SELECT count(*) FROM user_fts WHERE user_fts MATCH ?")
        sqlite3_bind_text(count, 1, everywhere, -1, Self.transient)
        guard sqlite3_step(count) == SQLITE_ROW else { throw Failure(description: String(cString: sqlite3_errmsg(db))) }
        let total = Int(sqlite3_column_int64(count, 0))
        sqlite3_reset(count)
        var rows = try page(matching: inName, limit: limit)
        if rows < limit, rows < total {
            rows += try page(matching: "(\(everywhere)) NOT (\(inName))", limit: limit - rows)
        }
        return rows
    }

    private func page(matching pattern: String, limit: Int) throws -> Int {
        let page = try prepare("""
            SELECT user.id, user.email, user.display_name, user.role, user.rider_type, user.created_at,
                   user.stored_at, user.entity_tag
            FROM (SELECT rowid AS match_key FROM user_fts WHERE user_fts MATCH ? ORDER BY rowid LIMIT ?) AS found
            JOIN user ON user.key = found.match_key
            ORDER BY found.match_key
            """)
        sqlite3_bind_text(page, 1, pattern, -1, Self.transient)
        sqlite3_bind_int(page, 2, Int32(limit))
        var rows = 0
        while sqlite3_step(page) == SQLITE_ROW {
            _ = String(cString: sqlite3_column_text(page, 0))
            _ = String(cString: sqlite3_column_text(page, 2))
            rows += 1
        }
        sqlite3_reset(page)
        return rows
    }

    /// A plain read of one user by id.
    func select(id: String) throws {
        let statement = try prepare("SELECT id, email, display_name, role, rider_type, created_at, stored_at, entity_tag FROM user WHERE id = ?")
        sqlite3_bind_text(statement, 1, id, -1, Self.transient)
        guard sqlite3_step(statement) == SQLITE_ROW else { throw Failure(description: "no user \(id)") }
        _ = String(cString: sqlite3_column_text(statement, 2))
        sqlite3_reset(statement)
    }

    /// The floor of an open: open the file as SQLite does by default (reading its header and
    /// schema on the first statement), read one user, close.
    static func openSelectClose(path: String, id: String) throws {
        let raw = try RawSQLite(path: path)
        try raw.select(id: id)
    }

    /// What `SQLiteUserCache.user(id:)` did for a hit until reads stopped writing: read, bump the
    /// LRU sequence, count the hit, in one write transaction.
    func lookupLikeTheCache(id: String) throws {
        try exec("BEGIN IMMEDIATE")
        try select(id: id)
        let bump = try prepare("UPDATE user SET last_used = (SELECT max(last_used) FROM user) + 1 WHERE id = ?")
        sqlite3_bind_text(bump, 1, id, -1, Self.transient)
        guard sqlite3_step(bump) == SQLITE_DONE else { throw Failure(description: String(cString: sqlite3_errmsg(db))) }
        try exec("UPDATE cache_counter SET value = value + 1 WHERE name = 'hits'")
        try exec("COMMIT")
    }
}
