import Foundation
import GRDB
import GRDBSQLite

/// The lookup by id, the hot path of every cache-first read: one `SELECT`, prepared once per
/// connection and run through SQLite's C API. GRDB's `fetchOne` builds argument and row objects
/// for it, among them a dictionary of the row's lower-cased column names, and its statement
/// cache hashes the SQL on every call: together most of a hit, which was 2.6× the bare `SELECT`
/// (docs/performance.md, "The cache's hit and close").
///
/// Used only inside the connection's own access (`DatabaseQueue.inDatabase`), which serializes
/// it; ``release(in:)`` before the connection closes, since SQLite will not close a connection
/// with a statement still prepared.
final class UserLookup: @unchecked Sendable {
    private static let sql = "SELECT \(UserRecord.selection) FROM user WHERE id = ?"
    /// `SQLITE_TRANSIENT`: SQLite copies the bound text, which lives only for the call.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private var statement: Statement?
    private var connection: SQLiteConnection?

    /// The entry for `id`: a read only. Its recency and the hit or miss are written later, in a
    /// batch (``UserCacheQueries/recordLookups(used:hits:misses:in:)``). The statement is reset
    /// before this returns, so no read transaction outlives the lookup.
    func user(id: String, in db: Database) throws -> UserRecord? {
        let handle = try prepared(in: db)
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        let bound = id.withCString { text in sqlite3_bind_text(handle, 1, text, -1, Self.transient) }
        guard bound == SQLITE_OK else { throw Self.failure(bound, in: db) }
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return UserRecord(columnsOf: handle)
        case SQLITE_DONE: return nil
        case let code: throw Self.failure(code, in: db)
        }
    }

    /// Finalizes the statement; the next lookup prepares it again.
    func release() {
        statement = nil
        connection = nil
    }

    private func prepared(in db: Database) throws -> SQLiteStatement {
        if let statement, connection == db.sqliteConnection { return statement.sqliteStatement }
        let made = try db.makeStatement(sql: Self.sql)
        statement = made
        connection = db.sqliteConnection
        return made.sqliteStatement
    }

    /// SQLite's answer as GRDB reports it, so damage (`SQLITE_CORRUPT`, `SQLITE_NOTADB`) is
    /// recognized and recovered from as for every other statement.
    private static func failure(_ code: Int32, in db: Database) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code),
                      message: sqlite3_errmsg(db.sqliteConnection).map { String(cString: $0) })
    }
}
