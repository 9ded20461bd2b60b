import Foundation
import GRDB
@testable import RiderInfrastructure
import RiderDomain
import Testing

/// What a close leaves on disk: after lookups only, their recency and counts stay in the
/// write-ahead log (no checkpoint, no `fsync`) until the log passes its threshold; after stores
/// the log is folded into the file as before. On real files, each instance a separate
/// connection, as another process has.
@Suite("SQLiteUserCache: a close after reads leaves the log, a close after writes checkpoints")
struct SQLiteUserCacheCloseTests {
    private var riders: [User] { CacheSamples.riders }

    private func logSize(_ folder: CacheFolder) -> Int64 { CacheLog.size(of: folder.file) }

    /// A cache of the five sample riders, bounded to them, closed after storing.
    private func stored(maximumEntries: Int = 5) async throws -> CacheFolder {
        let folder = try CacheFolder()
        let writer = folder.cache(maximumEntries: maximumEntries)
        try await writer.store(riders, at: CacheSamples.epoch)
        await writer.close()
        return folder
    }

    @Test("a close after stores folds the log into the file: no log is left")
    func closeAfterStoresCheckpoints() async throws {
        let folder = try await stored()
        defer { folder.remove() }

        #expect(logSize(folder) == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.file.path + "-wal"))
    }

    @Test("a close after a hit leaves the file byte for byte as it was; the hit's recency waits in the log, below its threshold")
    func closeAfterHitLeavesTheFile() async throws {
        let folder = try await stored()
        defer { folder.remove() }
        let before = try Data(contentsOf: folder.file)

        let reader = folder.cache(maximumEntries: 5)
        #expect(try await reader.user(id: riders[0].id) != nil)
        await reader.close()

        #expect(try Data(contentsOf: folder.file) == before, "no checkpoint")
        #expect(logSize(folder) > 0 && logSize(folder) < CacheLog.checkpointThreshold, "\(logSize(folder))")
        #expect(!FileManager.default.fileExists(atPath: folder.file.path + "-open"), "closed cleanly")
    }

    @Test("a hit left in the log still counts and still makes its entry the most recently used, across a reopen")
    func hitInTheLogIsDurable() async throws {
        let folder = try await stored()
        defer { folder.remove() }
        let reader = folder.cache(maximumEntries: 5)
        _ = try await reader.user(id: riders[0].id)  // riders[0], stored first, is now the most recent
        await reader.close()
        #expect(logSize(folder) > 0)

        let next = folder.cache(maximumEntries: 5)
        #expect(await next.checkedAfterUncleanShutdownOnOpen == false)
        try await next.store([CacheSamples.user(6, "Rider Number 6")], at: CacheSamples.epoch)
        #expect(try await next.statistics().hits == 1)
        #expect(try await next.user(id: riders[0].id) != nil, "the hit kept it")
        #expect(try await next.user(id: riders[1].id) == nil, "the least recently used went instead")
        #expect(await next.recoveredFiles.isEmpty)
        await next.close()
        #expect(logSize(folder) == 0, "stores: folded back")
    }

    @Test("read-only runs grow the log up to its threshold, and the close that finds it past it folds it back")
    func logStaysBelowItsThreshold() async throws {
        let folder = try await stored()
        defer { folder.remove() }
        let checkpointed = try Data(contentsOf: folder.file)
        var sizes: [Int64] = []
        for run in 0..<60 {
            let reader = folder.cache(maximumEntries: 5)
            #expect(try await reader.user(id: riders[run % riders.count].id) != nil)
            await reader.close()
            sizes.append(logSize(folder))
        }

        #expect(sizes.allSatisfy { $0 < CacheLog.checkpointThreshold }, "\(sizes)")
        #expect(sizes.contains(0), "some close checkpointed: \(sizes)")
        #expect(try Data(contentsOf: folder.file) != checkpointed, "the hits reached the file")
        #expect(try await folder.cache().statistics().hits == 60)
    }

    @Test("a newer schema recorded only in the log, past a header that says the current one, is still seen and moved aside")
    func newerSchemaInTheLog() async throws {
        let folder = try await stored()
        defer { folder.remove() }
        #expect(CacheFileHeader.read(folder.file).userVersion == UserCacheSchema.version)
        var future = UserCacheSchema.migrator
        future.registerMigration("v99-from-the-future") { db in try db.execute(sql: "CREATE TABLE hologram (x)") }
        let newer = try DatabaseQueue(path: folder.file.path)
        try future.migrate(newer)
        try await newer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA user_version = \(UserCacheSchema.version + 1)")
        }
        #expect(newer.inDatabase { db in CacheLog.keepOnClose(db.sqliteConnection) })
        try newer.close()
        #expect(logSize(folder) > 0)
        #expect(CacheFileHeader.read(folder.file).userVersion == UserCacheSchema.version, "the file's header is behind its log")

        let cache = folder.cache()
        #expect(try await cache.statistics().entries == 0)
        #expect(await cache.recoveredFiles.count == 1)
    }

    @Test("the full check reads the database through the log: damage in the file under a log of hits is found")
    func fullCheckWithALog() async throws {
        let folder = try await CacheFolder.filled()
        defer { folder.remove() }
        let reader = folder.cache(maximumEntries: 2_000)
        _ = try await reader.user(id: UserID("u_000001"))
        await reader.close()
        #expect(logSize(folder) > 0)
        try folder.damageMiddlePages()

        let checked = SQLiteUserCache(configuration: .init(file: folder.file, integrityCheck: .full))
        _ = try await checked.statistics()

        #expect(await checked.recoveredFiles.count == 1)
        #expect(try await checked.statistics().entries == 0)
        let aside = try #require(await checked.recoveredFiles.first)
        #expect(FileManager.default.fileExists(atPath: aside.path))
    }
}

/// The order a batch writes recency in: a hit is appended without hashing and folded into the
/// order only when something else takes a place in it, so the last use of each entry decides.
@Suite("PendingWrites: hits kept in order without a lookup per hit")
struct PendingWritesOrderTests {
    private func record(_ number: Int) -> UserRecord {
        UserRecord(CacheSamples.user(number, "Rider Number \(number)"), storedAt: CacheSamples.epoch, entityTag: nil)
    }

    @Test("hits among stores and removals: each entry's last use decides its place, a removed one has none")
    func lastUseDecides() {
        var pending = PendingWrites()
        let (a, b, c, d) = ("u_000001", "u_000002", "u_000003", "u_000004")
        pending.store(record(1))
        pending.noteLookup(of: b, found: true)
        pending.noteLookup(of: c, found: true)
        pending.noteLookup(of: b, found: true)
        pending.noteLookup(of: "u_999999", found: false)
        pending.store(record(4))  // not a use: a new entry's place is its store
        pending.noteLookup(of: c, found: true)
        pending.noteLookup(of: a, found: true)

        #expect(pending.orderedUses == [b, c, a])
        #expect(pending.hits == 5 && pending.misses == 1)
        #expect(pending.orderedRecords.map(\.id) == [a, d])

        pending.remove(c)
        #expect(pending.orderedUses == [b, a])
    }

    @Test("many hits are folded as they come, and the order is the same as if each had taken its place at once")
    func foldingKeepsTheOrder() {
        var pending = PendingWrites()
        let ids = (1...7).map { "u_00000\($0)" }
        var expected: [String] = []
        for round in 0..<10_000 {
            let id = ids[(round * 5) % ids.count]
            pending.noteLookup(of: id, found: true)
            expected.removeAll { $0 == id }
            expected.append(id)
        }

        #expect(pending.orderedUses == expected)
        #expect(pending.hits == 10_000)
        #expect(pending.count <= 4_096 + ids.count, "hits folded: memory bounded between batches")
    }
}
