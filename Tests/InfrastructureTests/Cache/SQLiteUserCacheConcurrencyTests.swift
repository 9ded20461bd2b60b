import Foundation
import RiderDomain
import RiderInfrastructure
import Testing

@Suite("SQLiteUserCache: several writers on one file")
struct SQLiteUserCacheConcurrencyTests {
    static let names = ["alpha", "bravo", "charlie", "delta"]

    @Test("four independent caches (separate connection pools, as separate processes have) write at once without SQLITE_BUSY")
    func concurrentWriters() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        let writers = 4
        let batches = 25
        let caches = (0..<writers).map { _ in folder.cache(maximumEntries: 100_000) }

        try await withThrowingTaskGroup(of: Void.self) { group in
            for (writer, cache) in caches.enumerated() {
                group.addTask {
                    for batch in 0..<batches {
                        let base = (writer * batches + batch) * 10
                        let users = (1...10).map { CacheSamples.user(base + $0, "Writer \(Self.names[writer]) Batch \(batch)") }
                        try await cache.store(users, at: CacheSamples.epoch)
                        _ = try await cache.user(id: users[0].id)
                        _ = try await cache.search("writer", page: PageRequest(limit: 5))
                    }
                }
            }
            try await group.waitForAll()
        }
        for cache in caches { await cache.close() }

        let stats = try await folder.cache().statistics()
        #expect(stats.entries == writers * batches * 10)
        #expect(stats.hits == writers * batches)
        #expect(try await folder.cache().search("writer charlie", page: PageRequest()).total == batches * 10)
    }

    @Test("caches opening a new file at the same moment (as rider processes started together do) all open it", arguments: 0..<40)
    func concurrentFirstOpen(round: Int) async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        let caches = (0..<4).map { _ in folder.cache(maximumEntries: 100_000) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, cache) in caches.enumerated() {
                group.addTask {
                    try await cache.store([CacheSamples.user(index + 1, "Opener \(round)")], at: CacheSamples.epoch)
                }
            }
            try await group.waitForAll()
        }
        for cache in caches { await cache.close() }
        #expect(try await folder.cache().statistics().entries == caches.count)
    }
}
