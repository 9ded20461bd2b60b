import Foundation
import GRDB
@testable import RiderInfrastructure
import RiderDomain
import Testing

@Suite("SQLiteUserCache: schema migrations")
struct SQLiteUserCacheMigrationTests {
    @Test("an empty file is migrated to the latest schema")
    func fromEmpty() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(at: folder.file.deletingLastPathComponent(), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: folder.file.path, contents: nil))
        try folder.makeFilePrivate()

        let cache = folder.cache()
        try await cache.store([CacheSamples.riders[0]], at: CacheSamples.epoch)
        await cache.close()

        let applied = try await DatabaseQueue(path: folder.file.path).read { db in
            try UserCacheSchema.migrator.appliedIdentifiers(db)
        }
        #expect(applied == ["v1-users-and-search", "v2-entity-tags-and-counters", "v3-search-prefix-index"])
        let header = CacheFileHeader.read(folder.file)
        #expect(header.userVersion == UserCacheSchema.version && header.isWAL, "\(header)")
    }

    @Test("reopening a cleanly closed, up-to-date file and reading it leaves the file byte for byte as it was")
    func ordinaryOpenWritesNothing() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        let first = folder.cache()
        try await first.store(CacheSamples.riders, at: CacheSamples.epoch)
        await first.close()
        let before = try Data(contentsOf: folder.file)

        let again = folder.cache()
        #expect(try await again.statistics().entries == CacheSamples.riders.count)
        #expect(try await again.search("jose", page: PageRequest()).total == 1)
        await again.close()

        let after = try Data(contentsOf: folder.file)
        #expect(after == before, "no table made and dropped, no version rewritten")
    }

    @Test("a file from before the schema version was recorded gets it on its next open, and keeps its users")
    func recordsVersionOnce() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        let first = folder.cache()
        try await first.store([CacheSamples.riders[0]], at: CacheSamples.epoch)
        await first.close()
        let queue = try DatabaseQueue(path: folder.file.path)
        try await queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA user_version = 0") }
        try queue.close()
        #expect(CacheFileHeader.read(folder.file).userVersion == 0)

        let again = folder.cache()
        #expect(try await again.statistics().entries == 1)
        await again.close()
        #expect(CacheFileHeader.read(folder.file).userVersion == UserCacheSchema.version)
        #expect(await again.recoveredFiles.isEmpty)
    }

    @Test("a file of the first schema keeps its users, which stay searchable, after the upgrade")
    func fromPreviousVersion() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(at: folder.file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let old = try DatabaseQueue(path: folder.file.path)
        try UserCacheSchema.migrator.migrate(old, upTo: "v1-users-and-search")
        try await old.write { db in
            try db.execute(sql: """
                INSERT INTO user (id, email, display_name, role, rider_type, created_at, stored_at, last_used)
                VALUES ('u_000007', 'jose@example.com', 'José Old', 'user', 'mentor', NULL, ?, 1)
                """, arguments: [CacheSamples.epoch.timeIntervalSince1970])
        }
        try old.close()
        try folder.makeFilePrivate()

        let cache = folder.cache()
        let cached = try #require(try await cache.user(id: "u_000007"))

        #expect(cached.displayName == "José Old" && cached.riderType == .mentor)
        #expect(cached.entityTag == nil)
        #expect(cached.storedAt == CacheSamples.epoch)
        #expect(try await cache.search("jose", page: PageRequest()).users.map(\.id) == ["u_000007"])
        #expect(try await cache.statistics().hits == 1)
        #expect(await cache.recoveredFiles.isEmpty, "an older file is upgraded, not replaced")
    }

    @Test("a file of the second schema gets the prefix index, and what it held is found by two- and three-letter prefixes")
    func prefixIndexUpgrade() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(at: folder.file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let old = try DatabaseQueue(path: folder.file.path)
        try UserCacheSchema.migrator.migrate(old, upTo: "v2-entity-tags-and-counters")
        try await old.write { db in
            try db.execute(sql: """
                INSERT INTO user (id, email, display_name, role, rider_type, created_at, stored_at, last_used)
                VALUES ('u_000008', 'gar@example.com', 'Élodie García', 'user', NULL, NULL, ?, 1)
                """, arguments: [CacheSamples.epoch.timeIntervalSince1970])
        }
        try old.close()
        try folder.makeFilePrivate()

        let cache = folder.cache()
        for query in ["el", "elo", "ga", "gar", "garc", "elodie garcia"] {
            #expect(try await cache.search(query, page: PageRequest()).users.map(\.id) == ["u_000008"], "\(query)")
        }
        await cache.close()
        let definition = try await DatabaseQueue(path: folder.file.path).read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'user_fts'")
        }
        #expect(definition?.contains("prefix='2 3'") == true)
    }
}
