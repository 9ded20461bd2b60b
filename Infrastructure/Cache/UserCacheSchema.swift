import Foundation
import GRDB

/// The versioned schema of the user cache file.
///
/// Migrations are append-only: a released one is never edited, a change is a new one. A file
/// whose schema has migrations this code does not know (written by a newer RiderKit) is treated
/// like a damaged file: moved aside and rebuilt, since the cache holds nothing the server lacks.
enum UserCacheSchema {
    /// How many migrations the current schema has, written to `PRAGMA user_version` once they
    /// are applied: an open that finds it in the file's header (``CacheFileHeader``) needs no
    /// look at `grdb_migrations`. Grows with every migration.
    static let version: UInt32 = 3

    /// All migrations, oldest first.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-users-and-search", migrate: createUsersAndSearch)
        migrator.registerMigration("v2-entity-tags-and-counters", migrate: addEntityTagsAndCounters)
        migrator.registerMigration("v3-search-prefix-index", migrate: addSearchPrefixIndex)
        return migrator
    }

    /// The first released schema: users, least-recently-used order, and the FTS5 index.
    ///
    /// The index is an external-content FTS5 table kept in step by triggers. The users table has
    /// an explicit `INTEGER PRIMARY KEY` because `VACUUM` may renumber implicit rowids, which
    /// would silently detach the index. `remove_diacritics 2` folds every Latin diacritic, so
    /// "jose" finds "José". The update trigger fires only when the indexed text changes, so
    /// bumping `last_used` on a hit does not re-index.
    static func createUsersAndSearch(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE user (
                key INTEGER PRIMARY KEY,
                id TEXT NOT NULL UNIQUE,
                email TEXT NOT NULL,
                display_name TEXT NOT NULL,
                role TEXT NOT NULL,
                rider_type TEXT,
                created_at DOUBLE,
                stored_at DOUBLE NOT NULL,
                last_used INTEGER NOT NULL
            );
            CREATE INDEX user_by_last_used ON user(last_used);
            CREATE INDEX user_by_stored_at ON user(stored_at);
            CREATE VIRTUAL TABLE user_fts USING fts5(
                display_name, email,
                content='user', content_rowid='key',
                tokenize='unicode61 remove_diacritics 2'
            );
            CREATE TRIGGER user_fts_after_insert AFTER INSERT ON user BEGIN
                INSERT INTO user_fts(rowid, display_name, email) VALUES (new.key, new.display_name, new.email);
            END;
            CREATE TRIGGER user_fts_after_delete AFTER DELETE ON user BEGIN
                INSERT INTO user_fts(user_fts, rowid, display_name, email)
                    VALUES ('delete', old.key, old.display_name, old.email);
            END;
            CREATE TRIGGER user_fts_after_update AFTER UPDATE OF display_name, email ON user
            WHEN old.display_name IS NOT new.display_name OR old.email IS NOT new.email BEGIN
                INSERT INTO user_fts(user_fts, rowid, display_name, email)
                    VALUES ('delete', old.key, old.display_name, old.email);
                INSERT INTO user_fts(rowid, display_name, email) VALUES (new.key, new.display_name, new.email);
            END;
            """)
    }

    /// Entity tags for `If-None-Match` revalidation, and persistent hit and miss counts.
    static func addEntityTagsAndCounters(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE user ADD COLUMN entity_tag TEXT;
            CREATE TABLE cache_counter (name TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL DEFAULT 0);
            INSERT INTO cache_counter (name, value) VALUES ('hits', 0), ('misses', 0);
            """)
    }

    /// Rebuilds the search index with FTS5 prefix indexes for two and three characters, the
    /// prefixes people type. Without them a query like "ga" expands to every distinct term
    /// starting with it — one per user, since each email's local part ("jose.garcia123") is its
    /// own term — and merges all their lists. With them it reads one list: counting the matches
    /// for a two-letter prefix over 100,000 users went from 2.6 ms to 0.3 ms (docs/performance.md).
    /// The triggers name the table, not its definition, so they keep working.
    static func addSearchPrefixIndex(_ db: Database) throws {
        try db.execute(sql: """
            DROP TABLE user_fts;
            CREATE VIRTUAL TABLE user_fts USING fts5(
                display_name, email,
                content='user', content_rowid='key',
                tokenize='unicode61 remove_diacritics 2',
                prefix='2 3'
            );
            INSERT INTO user_fts(user_fts) VALUES ('rebuild');
            """)
    }
}
