import Foundation
import RiderDomain
import RiderInfrastructure
import Testing

/// The in-memory fake follows the SQLite cache's rules, so tests of other layers that use it
/// see the same behaviour.
@Suite("InMemoryUserCache follows the SQLite cache's rules")
struct InMemoryUserCacheTests {
    @Test("least recently used users are evicted past the bound; a lookup counts as a use")
    func eviction() async throws {
        let cache = InMemoryUserCache(maximumEntries: 3)
        let riders = CacheSamples.riders
        try await cache.store(Array(riders[0..<3]), at: CacheSamples.epoch)
        _ = try await cache.user(id: riders[0].id)

        try await cache.store([riders[3]], at: CacheSamples.epoch)

        #expect(try await cache.user(id: riders[1].id) == nil)
        #expect(try await cache.user(id: riders[0].id) != nil)
        #expect(try await cache.statistics().entries == 3)
    }

    @Test("entity tags survive unchanged stores, not changed ones; revalidation restamps")
    func entityTags() async throws {
        let cache = InMemoryUserCache()
        var user = CacheSamples.riders[0]
        try await cache.store(user, entityTag: EntityTag(rawValue: "\"a\""), at: CacheSamples.epoch)
        try await cache.store([user], at: CacheSamples.epoch)
        #expect(try await cache.user(id: user.id)?.entityTag?.rawValue == "\"a\"")

        try await cache.markRevalidated(id: user.id, at: CacheSamples.epoch.addingTimeInterval(60))
        #expect(try await cache.user(id: user.id)?.storedAt == CacheSamples.epoch.addingTimeInterval(60))

        user.email = "new@example.com"
        try await cache.store([user], at: CacheSamples.epoch)
        #expect(try await cache.user(id: user.id)?.entityTag == nil)
    }

    @Test("search is prefix, case- and diacritic-insensitive, paginated, and says it came from the cache")
    func search() async throws {
        let cache = InMemoryUserCache()
        try await cache.store(CacheSamples.riders, at: CacheSamples.epoch)

        let page = try await cache.search("JOSE gar", page: PageRequest(limit: 1))

        #expect(page.users.map(\.id) == ["u_000001"] && page.total == 1 && page.source == .cache)
        #expect(page.oldestStoredAt == CacheSamples.epoch)
    }

    @Test("statistics count hits and misses; removeAll resets them")
    func statistics() async throws {
        let cache = InMemoryUserCache()
        try await cache.store(CacheSamples.riders, at: CacheSamples.epoch)
        _ = try await cache.user(id: CacheSamples.riders[0].id)
        _ = try await cache.user(id: "u_999999")

        let stats = try await cache.statistics()
        #expect(stats.hits == 1 && stats.misses == 1 && stats.entries == 5 && stats.sizeOnDisk == 0)

        try await cache.removeAll()
        let empty = try await cache.statistics()
        #expect(empty.entries == 0 && empty.hits == 0 && empty.misses == 0)
    }
}
