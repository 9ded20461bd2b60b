import Foundation
import GRDB
import RiderDomain
import RiderInfrastructure
import Testing

@Suite("SQLiteUserCache: storing, lookups, entity tags, statistics")
struct SQLiteUserCacheTests {
    @Test("a stored user reads back equal, with its time and entity tag, from a private file in a private folder")
    func roundTrip() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        let cache = folder.cache()
        let user = CacheSamples.riders[0]

        try await cache.store(user, entityTag: EntityTag(rawValue: "\"v1\""), at: CacheSamples.epoch)
        let cached = try #require(try await cache.user(id: user.id))

        #expect(cached.value == user)
        #expect(cached.storedAt == CacheSamples.epoch)
        #expect(cached.entityTag?.rawValue == "\"v1\"")
        #expect(cached.source == .cache)
        #expect(try permissions(of: folder.file) == 0o600)
        #expect(try permissions(of: folder.file.deletingLastPathComponent()) == 0o700)
    }

    @Test("what one instance stores, another on the same file reads (the cache outlives the process)")
    func persists() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        let first = folder.cache()
        try await first.store(CacheSamples.riders, at: CacheSamples.epoch)
        await first.close()

        let second = folder.cache()
        #expect(try await second.user(id: CacheSamples.riders[2].id)?.value == CacheSamples.riders[2])
    }

    @Test("storing an unchanged user keeps its entity tag; a changed one loses it")
    func entityTagFollowsContent() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        let cache = folder.cache()
        var user = CacheSamples.riders[1]
        try await cache.store(user, entityTag: EntityTag(rawValue: "\"a\""), at: CacheSamples.epoch)

        try await cache.store([user], at: CacheSamples.epoch.addingTimeInterval(10))
        #expect(try await cache.user(id: user.id)?.entityTag?.rawValue == "\"a\"")

        user.displayName = "Jonas Renamed"
        try await cache.store([user], at: CacheSamples.epoch.addingTimeInterval(20))
        let changed = try #require(try await cache.user(id: user.id))
        #expect(changed.entityTag == nil)
        #expect(changed.displayName == "Jonas Renamed")
    }

    @Test("a revalidation restamps the entry without changing it")
    func revalidation() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        let cache = folder.cache()
        let user = CacheSamples.riders[3]
        try await cache.store(user, entityTag: EntityTag(rawValue: "\"t\""), at: CacheSamples.epoch)

        try await cache.markRevalidated(id: user.id, at: CacheSamples.epoch.addingTimeInterval(600))

        let cached = try #require(try await cache.user(id: user.id))
        #expect(cached.storedAt == CacheSamples.epoch.addingTimeInterval(600))
        #expect(cached.value == user && cached.entityTag?.rawValue == "\"t\"")
    }

    @Test("a removed user is gone from lookups and from search")
    func remove() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        let cache = folder.cache()
        try await cache.store(CacheSamples.riders, at: CacheSamples.epoch)

        try await cache.remove(id: CacheSamples.riders[0].id)

        #expect(try await cache.user(id: CacheSamples.riders[0].id) == nil)
        #expect(try await cache.search("jose", page: PageRequest()).total == 0)
        #expect(try await cache.statistics().entries == CacheSamples.riders.count - 1)
    }

    @Test("statistics count entries, hits and misses across instances, the oldest entry and bytes on disk")
    func statistics() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        let cache = folder.cache(maximumEntries: 10)
        try await cache.store(Array(CacheSamples.riders.prefix(2)), at: CacheSamples.epoch)
        try await cache.store(Array(CacheSamples.riders.suffix(3)), at: CacheSamples.epoch.addingTimeInterval(60))
        _ = try await cache.user(id: CacheSamples.riders[0].id)
        _ = try await cache.user(id: CacheSamples.riders[4].id)
        _ = try await cache.user(id: "u_999999")
        // What an instance holds back (its lookups' counts) reaches the others once written.
        try await cache.flush()

        let stats = try await folder.cache(maximumEntries: 10).statistics()

        #expect(stats.entries == 5)
        #expect(stats.maximumEntries == 10)
        #expect(stats.hits == 2 && stats.misses == 1)
        #expect(stats.oldestStoredAt == CacheSamples.epoch)
        #expect(stats.sizeOnDisk > 0)
        #expect(stats.location == folder.file.path)
    }

    @Test("removeAll empties the cache, resets the counts and leaves the file usable")
    func removeAll() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        let cache = folder.cache()
        try await cache.store(CacheSamples.riders, at: CacheSamples.epoch)
        _ = try await cache.user(id: CacheSamples.riders[0].id)

        try await cache.removeAll()

        let stats = try await cache.statistics()
        #expect(stats.entries == 0 && stats.hits == 0 && stats.misses == 0 && stats.oldestStoredAt == nil)
        #expect(try await cache.search("jo", page: PageRequest()).total == 0)
        try await cache.store([CacheSamples.riders[0]], at: CacheSamples.epoch)
        #expect(try await cache.search("jo", page: PageRequest()).total == 1)
    }

    @Test("after removeAll the removed users' data is gone from the file and its log, not just unlinked")
    func removeAllLeavesTheDisk() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        let cache = folder.cache()
        try await cache.store(CacheSamples.riders, at: CacheSamples.epoch)

        try await cache.removeAll()

        var bytes = try Data(contentsOf: folder.file)
        bytes.append((try? Data(contentsOf: URL(fileURLWithPath: folder.file.path + "-wal"))) ?? Data())
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains("jose.garcia@example.com"))
        #expect(!text.contains("Lovelace") && !text.lowercased().contains("lovelace"), "not even as an index term")
    }

    @Test("past the bound the least recently used users are evicted, and a lookup counts as a use")
    func eviction() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        let cache = folder.cache(maximumEntries: 3)
        let riders = CacheSamples.riders
        try await cache.store(Array(riders[0..<3]), at: CacheSamples.epoch)
        _ = try await cache.user(id: riders[0].id)  // riders[1] is now the least recently used

        try await cache.store([riders[3]], at: CacheSamples.epoch)
        try await cache.store([riders[4]], at: CacheSamples.epoch)

        #expect(try await cache.statistics().entries == 3)
        #expect(try await cache.user(id: riders[1].id) == nil)
        #expect(try await cache.user(id: riders[2].id) == nil)
        #expect(try await cache.user(id: riders[0].id) != nil)
        #expect(try await cache.search("jonas", page: PageRequest()).total == 0, "evicted users leave the index too")
    }

    @Test("the file holds user fields only: no column for tokens or passwords")
    func noSecretsColumns() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        let cache = folder.cache()
        try await cache.store(CacheSamples.riders, at: CacheSamples.epoch)
        await cache.close()

        let columns = try await DatabaseQueue(path: folder.file.path).read { db in
            try Row.fetchAll(db, sql: "PRAGMA table_info(user)").map { $0["name"] as String }
        }
        #expect(Set(columns) == ["key", "id", "email", "display_name", "role", "rider_type", "created_at",
                                 "stored_at", "last_used", "entity_tag"])
        let text = String(decoding: try Data(contentsOf: folder.file), as: UTF8.self).lowercased()
        #expect(!text.contains("password") && !text.contains("bearer"))
    }

    @Test("a cache whose folder cannot be created fails with .storage naming the folder, not a crash")
    func unwritableFolder() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let blocker = directory.url.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        let cache = SQLiteUserCache(configuration: .init(file: blocker.appendingPathComponent("users.sqlite")))

        let error = await #expect(throws: RiderError.self) { try await cache.store(CacheSamples.riders, at: CacheSamples.epoch) }
        guard let riderError = error, riderError.code == .storage, case let message = riderError.detail ?? "" else {
            Issue.record("expected .storage, got \(String(describing: error))")
            return
        }
        #expect(message.contains(blocker.path))
    }

    // Root ignores file modes (and CI runs as root), so there the file and its folder are made
    // immutable with chattr instead: root cannot write through that either.
    @Test("a read-only cache file fails with .storage saying so, when its batch is written")
    func readOnlyFile() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        let cache = folder.cache()
        try await cache.store([CacheSamples.riders[0]], at: CacheSamples.epoch)
        await cache.close()
        let directory = folder.file.deletingLastPathComponent()
        try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: folder.file.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: directory.path)
        let immutable = geteuid() == 0
        if immutable {
            try #require(try chattr("+i", folder.file.path, directory.path) == 0,
                         "chattr +i failed: running as root, the test cannot make the cache file read-only")
        }
        defer {
            if immutable { _ = try? chattr("-i", folder.file.path, directory.path) }
            try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
        }

        let error = await #expect(throws: RiderError.self) {
            let cache = folder.cache()
            try await cache.store([CacheSamples.riders[1]], at: CacheSamples.epoch)
            try await cache.flush()
        }
        guard let riderError = error, riderError.code == .storage else {
            Issue.record("expected .storage, got \(String(describing: error))")
            return
        }
        // Read-only (SQLITE_READONLY, as root with chattr) or not openable for writing (SQLITE_CANTOPEN,
        // its folder read-only): either way the message names the file and says to make it writable.
        let detail = riderError.detail ?? ""
        #expect(detail == "the user cache \(folder.file.path) is read-only; fix its permissions"
                || detail == "the user cache \(folder.file.path) cannot be opened; check that its folder exists and "
                    + "is writable", "\(detail)")
    }

    private func chattr(_ arguments: String...) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
