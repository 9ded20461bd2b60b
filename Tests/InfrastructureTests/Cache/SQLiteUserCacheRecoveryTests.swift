import Foundation
import GRDB
import Logging
@testable import RiderInfrastructure
import RiderDomain
import Synchronization
import Testing
import TestSupport

@Suite("SQLiteUserCache: recovery from damaged files")
struct SQLiteUserCacheRecoveryTests {
    /// Opens the damaged file, checks it was moved aside with a warning and the cache works.
    private func expectRecovery(_ folder: CacheFolder, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let handler = CapturingLogLines()
        let cache = folder.cache(logger: Logger(label: "test") { _ in handler })

        try await cache.store([CacheSamples.riders[0]], at: CacheSamples.epoch)

        #expect(try await cache.statistics().entries == 1, sourceLocation: sourceLocation)
        #expect(try await cache.search("jose", page: PageRequest()).total == 1, sourceLocation: sourceLocation)
        let moved = await cache.recoveredFiles
        #expect(moved.count == 1, sourceLocation: sourceLocation)
        let aside = try #require(moved.first, sourceLocation: sourceLocation)
        #expect(aside.lastPathComponent.hasPrefix("users.sqlite.corrupt-"), sourceLocation: sourceLocation)
        #expect(FileManager.default.fileExists(atPath: aside.path), "moved aside, not deleted", sourceLocation: sourceLocation)
        let warnings = handler.lines.withLock { $0 }
        #expect(warnings.contains { $0.hasPrefix("warning") && $0.contains(aside.path) && $0.contains("moved aside") },
                "\(warnings)", sourceLocation: sourceLocation)
    }

    @Test("a file that is not a database is moved aside and the cache starts empty")
    func notADatabase() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(at: folder.file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(repeating: 0x41, count: 8_192).write(to: folder.file)
        try folder.makeFilePrivate()

        try await expectRecovery(folder)
    }

    @Test("garbage written over the header of a real cache is detected and recovered from")
    func garbageHeader() async throws {
        let folder = try await CacheFolder.filled()
        defer { folder.remove() }
        let handle = try FileHandle(forWritingTo: folder.file)
        try handle.write(contentsOf: Data((0..<100).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }))
        try handle.close()

        try await expectRecovery(folder)
    }

    @Test("a truncated cache file is detected and recovered from")
    func truncated() async throws {
        let folder = try await CacheFolder.filled()
        defer { folder.remove() }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: folder.file.path)[.size] as? NSNumber)
        let handle = try FileHandle(forWritingTo: folder.file)
        try handle.truncate(atOffset: UInt64(size.intValue / 2))
        try handle.close()

        try await expectRecovery(folder)
    }

    @Test("damage inside the file, past a sound header, is found by the first query that reads it and recovered from")
    func damagedPages() async throws {
        let folder = try await CacheFolder.filled()
        defer { folder.remove() }
        try folder.damagePagesPastHeader()

        try await expectRecovery(folder)
    }

    @Test("the full check (quick_check) finds damaged pages as soon as the file is opened")
    func fullCheck() async throws {
        let folder = try await CacheFolder.filled()
        defer { folder.remove() }
        try folder.damageMiddlePages()
        let cache = SQLiteUserCache(configuration: .init(file: folder.file, integrityCheck: .full))

        _ = try await cache.statistics()

        #expect(await cache.recoveredFiles.count == 1)
        #expect(try await cache.statistics().entries == 0)
    }

    @Test("a file written by a newer schema is moved aside rather than misread, whether or not it records its version",
          arguments: [false, true])
    func newerSchema(recordsVersion: Bool) async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(at: folder.file.deletingLastPathComponent(), withIntermediateDirectories: true)
        var future = UserCacheSchema.migrator
        future.registerMigration("v99-from-the-future") { db in try db.execute(sql: "CREATE TABLE hologram (x)") }
        let queue = try DatabaseQueue(path: folder.file.path)
        try future.migrate(queue)
        if recordsVersion {
            try await queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA user_version = \(UserCacheSchema.version + 1)")
            }
        }
        try queue.close()
        try folder.makeFilePrivate()

        try await expectRecovery(folder)
    }

    @Test("two damaged files in a row get distinct names; neither is deleted")
    func repeatedRecovery() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(at: folder.file.deletingLastPathComponent(), withIntermediateDirectories: true)
        for _ in 0..<2 {
            try Data(repeating: 0x42, count: 4_096).write(to: folder.file)
            try folder.makeFilePrivate()
            let cache = folder.cache()
            _ = try await cache.statistics()
            await cache.close()
        }

        let siblings = try folder.siblings()
        let aside = siblings.filter { $0.hasPrefix("users.sqlite.corrupt-") && !$0.hasSuffix("-wal") }
        #expect(aside.count == 2, "\(siblings)")
    }
}

@Suite("SQLiteUserCache: damage met by a lookup")
struct SQLiteUserCacheLookupRecoveryTests {
    @Test("damage a lookup by id reads (through SQLite's C API) is recovered from as any other: moved aside, then misses")
    func damageMetByALookup() async throws {
        let folder = try await CacheFolder.filled()
        defer { folder.remove() }
        try folder.damagePagesPastHeader()
        let cache = folder.cache(maximumEntries: 2_000)

        for number in 1...2_000 {
            _ = try await cache.user(id: CacheSamples.user(number, "").id)
        }

        #expect(await cache.recoveredFiles.count == 1)
        #expect(try await cache.user(id: CacheSamples.user(1, "").id) == nil, "the new file is empty")
        #expect(try await cache.statistics().entries == 0)
    }
}
