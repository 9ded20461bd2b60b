import Foundation
import RiderDomain
import RiderInfrastructure
import Testing

/// Reads do not write, answers are written behind in batches, and the full integrity check runs
/// only after an unclean shutdown or when asked: on a real SQLite file, with a second instance
/// (a separate connection pool, as another process has) as the witness of what reached the file.
@Suite("SQLiteUserCache: reads that do not write, batched writes, checks when they can find something")
struct SQLiteUserCacheWriteBehindTests {
    private func riders(_ range: ClosedRange<Int>) -> [User] {
        range.map { CacheSamples.user($0, "Rider Number \($0)") }
    }

    private func cache(_ folder: CacheFolder, delay: Duration = .seconds(60), batchSize: Int = 10_000) -> SQLiteUserCache {
        var configuration = SQLiteUserCache.Configuration(file: folder.file)
        configuration.writeBehind = .init(delay: delay, batchSize: batchSize)
        return SQLiteUserCache(configuration: configuration)
    }

    private func fileState(_ folder: CacheFolder) throws -> [String: Date] {
        var state: [String: Date] = [:]
        for suffix in ["", "-wal"] {
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder.file.path + suffix)
            state[suffix] = attributes?[.modificationDate] as? Date
            state[suffix + " size"] = (attributes?[.size] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue) }
        }
        return state
    }

    @Test("lookups read only: neither the file nor its log changes until their recency and counts are written")
    func lookupsDoNotWrite() async throws {
        let folder = try await CacheFolder.filled(count: 50)
        defer { folder.remove() }

        let reader = cache(folder)
        _ = try await reader.user(id: UserID("u_000001"))
        let before = try fileState(folder)
        for number in 1...50 { #expect(try await reader.user(id: CacheSamples.user(number, "").id) != nil) }
        #expect(try await reader.user(id: "u_999999") == nil)
        #expect(try fileState(folder) == before, "a lookup wrote to the file")
        #expect(try await cache(folder).statistics().hits == 0)

        await reader.close()
        let written = try await cache(folder).statistics()
        #expect(written.hits == 51 && written.misses == 1)
    }

    @Test("a burst of stores is one batch: this instance sees every user at once, others once it is written")
    func burstIsOneBatch() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        let first = cache(folder)
        for rider in riders(1...100) { try await first.store(rider, entityTag: nil, at: CacheSamples.epoch) }

        #expect(try await first.user(id: "u_000042")?.value.displayName == "Rider Number 42")
        #expect(try await cache(folder).statistics().entries == 0, "nothing written before the batch")
        #expect(try await first.search("number", page: PageRequest(limit: 5)).total == 100, "a search sees the batch")
        // The search wrote the batch (an index must know what it is asked about).
        #expect(try await cache(folder).statistics().entries == 100)
    }

    @Test("a batch is written after its delay without being asked, and at once when it is full")
    func delayAndBatchSize() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        let timed = cache(folder, delay: .milliseconds(100))
        try await timed.store(riders(1...3), at: CacheSamples.epoch)
        var entries = 0
        for _ in 0..<100 where entries < 3 {
            try await Task.sleep(for: .milliseconds(50))
            entries = try await cache(folder).statistics().entries
        }
        #expect(entries == 3)

        let full = cache(folder, batchSize: 10)
        try await full.store(riders(11...20), at: CacheSamples.epoch)
        #expect(try await cache(folder).statistics().entries == 13)
    }

    @Test("a user stored twice in one batch keeps its entity tag when its fields did not change, and its place")
    func entityTagWithinABatch() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        let batching = cache(folder)
        let rider = CacheSamples.riders[0]
        try await batching.store(rider, entityTag: EntityTag(rawValue: "\"v1\""), at: CacheSamples.epoch)
        try await batching.store(CacheSamples.riders, at: CacheSamples.epoch.addingTimeInterval(5))
        await batching.close()

        let cached = try #require(try await cache(folder).user(id: rider.id))
        #expect(cached.entityTag?.rawValue == "\"v1\"")
        #expect(cached.storedAt == CacheSamples.epoch.addingTimeInterval(5))
        let page = try await cache(folder).search("jo", page: PageRequest())
        #expect(page.users.first?.id == rider.id, "first cached, first listed")
    }

    @Test("the full check runs on open after a process ended without closing the file, not after a clean close")
    func checkAfterUncleanShutdown() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        let first = cache(folder)
        try await first.store(riders(1...10), at: CacheSamples.epoch)
        #expect(FileManager.default.fileExists(atPath: folder.file.path + "-open"), "the open marker while in use")
        // Another instance while the first is open: in use, not a crash.
        let meanwhile = cache(folder)
        _ = try await meanwhile.user(id: "u_000001")
        #expect(await meanwhile.checkedAfterUncleanShutdownOnOpen == false)
        await meanwhile.close()
        await first.close()
        #expect(!FileManager.default.fileExists(atPath: folder.file.path + "-open"), "the last close removes it")

        let afterCleanClose = cache(folder)
        _ = try await afterCleanClose.user(id: "u_000001")
        #expect(await afterCleanClose.checkedAfterUncleanShutdownOnOpen == false)
        await afterCleanClose.close()

        // What a crashed process leaves: the marker, held by nobody.
        try Data().write(to: URL(fileURLWithPath: folder.file.path + "-open"))
        let afterCrash = cache(folder)
        #expect(try await afterCrash.user(id: "u_000001") != nil)
        #expect(await afterCrash.checkedAfterUncleanShutdownOnOpen == true)
        await afterCrash.close()
    }

    @Test("damage in the middle of the file left by a crash is found on the next open and the file rebuilt")
    func damageFoundAfterCrash() async throws {
        let folder = try await CacheFolder.filled()
        defer { folder.remove() }
        try folder.damageMiddlePages()
        try Data().write(to: URL(fileURLWithPath: folder.file.path + "-open"))

        let reopened = cache(folder)
        _ = try await reopened.statistics()
        #expect(await reopened.recoveredFiles.count == 1)
        #expect(try await reopened.statistics().entries == 0)
    }

    @Test("checkIntegrity (rider cache check) reads every page: a sound file is left alone, a damaged one rebuilt")
    func checkOnDemand() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        let writer = cache(folder)
        try await writer.store(riders(1...2_000), at: CacheSamples.epoch)
        #expect(try await writer.checkIntegrity() == nil, "pending users are written before the check")
        await writer.close()
        try folder.damageMiddlePages()

        let checker = cache(folder)
        let aside = try #require(try await checker.checkIntegrity())
        #expect(aside.lastPathComponent.hasPrefix("users.sqlite.corrupt-"))
        #expect(FileManager.default.fileExists(atPath: aside.path))
        #expect(try await checker.statistics().entries == 0)
        #expect(try await checker.checkIntegrity() == nil)
    }
}
