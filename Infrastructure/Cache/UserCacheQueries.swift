import Foundation
import GRDB
import RiderDomain

/// The SQL of the user cache, one function per operation, each run inside a transaction the
/// caller opens. User input reaches SQL only as bound arguments, and search text only as quoted
/// prefix terms built from its words, never as raw MATCH syntax.
enum UserCacheQueries {
    /// Inserts or updates a user. An entity tag survives an update that leaves every field as it
    /// was, and is dropped by one that changes a field, unless a new tag comes with it.
    /// (SQLite evaluates every `SET` expression against the row as it was before the update.)
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
            email = excluded.email,
            display_name = excluded.display_name,
            role = excluded.role,
            rider_type = excluded.rider_type,
            created_at = excluded.created_at,
            stored_at = excluded.stored_at,
            last_used = excluded.last_used
        """

    /// Stores `records` as the most recently used entries, then evicts past `maximumEntries`.
    static func store(_ records: [UserRecord], maximumEntries: Int, in db: Database) throws {
        guard !records.isEmpty else { return }
        try upsert(records, in: db)
        try evict(keeping: maximumEntries, in: db)
    }

    /// Stores `records` as the most recently used entries, in their order.
    static func upsert(_ records: [UserRecord], in db: Database) throws {
        guard !records.isEmpty else { return }
        var sequence = try nextUse(in: db)
        let statement = try db.cachedStatement(sql: upsert)
        for record in records {
            var arguments = record.upsertArguments
            arguments += [sequence]
            try statement.execute(arguments: arguments)
            sequence += 1
        }
    }

    /// Writes what lookups did since the last batch: the entries they used become the most
    /// recently used (least recent of them first), and the hit and miss counts grow.
    static func recordLookups(used ids: [String], hits: Int, misses: Int, in db: Database) throws {
        if !ids.isEmpty {
            var sequence = try nextUse(in: db)
            let statement = try db.cachedStatement(sql: "UPDATE user SET last_used = ? WHERE id = ?")
            for id in ids {
                try statement.execute(arguments: [sequence, id])
                sequence += 1
            }
        }
        let counter = try db.cachedStatement(sql: "UPDATE cache_counter SET value = value + ? WHERE name = ?")
        if hits > 0 { try counter.execute(arguments: [hits, "hits"]) }
        if misses > 0 { try counter.execute(arguments: [misses, "misses"]) }
    }

    /// Restamps an entry the server confirmed unchanged.
    static func markRevalidated(id: String, at date: Date, in db: Database) throws {
        try db.execute(sql: "UPDATE user SET stored_at = ?, last_used = ? WHERE id = ?",
                       arguments: [date.timeIntervalSince1970, try nextUse(in: db), id])
    }

    /// A page of users matching every word of `query` as a prefix: first those whose display
    /// name matches every word, then those found through the email, each group in the order the
    /// users were first cached.
    ///
    /// The order comes from the index itself, not from a score: FTS5 hands matches out in rowid
    /// order, so a page is read with `LIMIT`/`OFFSET` inside the index and only its rows are
    /// joined. Ranking by `bm25()` scored every match first — about 6,700 for a two-letter prefix
    /// over 100,000 users, 9 ms — while the two groups give what the weighting was for (a name
    /// match above an email match) in a fraction of a millisecond (docs/performance.md).
    static func search(_ query: String, page: PageRequest, in db: Database) throws -> UserPage {
        guard let everywhere = prefixPattern(for: query) else {
            return UserPage(users: [], total: 0, page: page.page, limit: page.limit, hasNext: false, source: .cache)
        }
        let inName = "{display_name} : (\(everywhere))"
        let throughEmailOnly = "(\(everywhere)) NOT (\(inName))"
        let total = try matchCount(everywhere, in: db)
        let offset = (page.page - 1) * page.limit
        var records = try matches(inName, limit: page.limit, offset: offset, in: db)
        if records.count < page.limit, offset + records.count < total {
            // How many name matches precede the email-only group: known from this page unless it
            // started past the last of them.
            let nameMatches = records.isEmpty && offset > 0 ? try matchCount(inName, in: db) : offset + records.count
            records += try matches(throughEmailOnly, limit: page.limit - records.count,
                                   offset: max(0, offset - nameMatches), in: db)
        }
        let shown = offset + records.count
        return UserPage(
            users: records.map { $0.toDomain() }, total: total, page: page.page, limit: page.limit,
            hasNext: shown < total, source: .cache,
            oldestStoredAt: records.map(\.storedAt).min().map(Date.init(timeIntervalSince1970:)))
    }

    /// An FTS5 expression matching every word of `query` as a prefix (`"jo"* "gar"*`), or `nil`
    /// when it has no words.
    ///
    /// Each word is a quoted string, so nothing the user types is FTS5 syntax (`OR`, `NEAR(`,
    /// `*`, `display_name:` are searched as words) and the expression is valid by construction;
    /// wrapping it in a column filter or `NOT` keeps it valid. Case and diacritics are left to
    /// the index's own tokenizer (`unicode61 remove_diacritics 2`), which folds the query as it
    /// folded the names. GRDB's `FTS5Pattern(matchingAllPrefixesIn:)` does the same job but
    /// opens two in-memory databases per call to tokenize and validate: 0.6 ms of a 1.2 ms search.
    static func prefixPattern(for query: String) -> String? {
        let words = query.split { !$0.isLetter && !$0.isNumber }
        guard !words.isEmpty else { return nil }
        return words.map { "\"\($0.replacingOccurrences(of: "\"", with: "\"\""))\"*" }.joined(separator: " ")
    }

    private static func matchCount(_ pattern: String, in db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM user_fts WHERE user_fts MATCH ?"),
                         arguments: [pattern]) ?? 0
    }

    /// A page of the users matching `pattern`, in index order: the matches are found and paged
    /// in the index alone, then joined to their rows, in one statement.
    private static func matches(_ pattern: String, limit: Int, offset: Int, in db: Database) throws -> [UserRecord] {
        try UserRecord.fetchAll(
            db.cachedStatement(sql: """
                SELECT \(UserRecord.selection)
                FROM (SELECT rowid AS match_key FROM user_fts WHERE user_fts MATCH ? ORDER BY rowid LIMIT ? OFFSET ?) AS found
                JOIN user ON user.key = found.match_key
                ORDER BY found.match_key
                """),
            arguments: [pattern, limit, offset])
    }

    /// Entries, oldest stored entry, hits and misses.
    static func counts(in db: Database) throws -> (entries: Int, oldest: Date?, hits: Int, misses: Int) {
        let entries = try Int.fetchOne(db, sql: "SELECT count(*) FROM user") ?? 0
        let oldest = try Double.fetchOne(db, sql: "SELECT min(stored_at) FROM user")
        let hits = try Int.fetchOne(db, sql: "SELECT value FROM cache_counter WHERE name = 'hits'") ?? 0
        let misses = try Int.fetchOne(db, sql: "SELECT value FROM cache_counter WHERE name = 'misses'") ?? 0
        return (entries, oldest.map(Date.init(timeIntervalSince1970:)), hits, misses)
    }

    /// Deletes one entry (the FTS trigger drops it from the index).
    static func remove(id: String, in db: Database) throws {
        try db.execute(sql: "DELETE FROM user WHERE id = ?", arguments: [id])
    }

    /// Deletes every entry and resets the counters. FTS5 keeps deleted terms in its segments
    /// until they are merged, so the index is emptied explicitly (`delete-all`): a cleared cache
    /// must not keep the names it held, not even as index terms.
    static func removeAll(in db: Database) throws {
        try db.execute(sql: """
            DELETE FROM user;
            INSERT INTO user_fts(user_fts) VALUES ('delete-all');
            UPDATE cache_counter SET value = 0;
            """)
    }

    /// Deletes the least recently used entries beyond `maximumEntries`.
    static func evict(keeping maximumEntries: Int, in db: Database) throws {
        let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM user") ?? 0
        guard count > maximumEntries else { return }
        try db.execute(sql: "DELETE FROM user WHERE key IN (SELECT key FROM user ORDER BY last_used LIMIT ?)",
                       arguments: [count - maximumEntries])
    }

    /// The next number of the least-recently-used sequence (shared by every process on the file,
    /// since it is read inside the writing transaction).
    private static func nextUse(in db: Database) throws -> Int64 {
        (try Int64.fetchOne(db, sql: "SELECT max(last_used) FROM user") ?? 0) + 1
    }
}
