import Foundation
import RiderDomain
import RiderInfrastructure
import Testing

@Suite("SQLiteUserCache: FTS5 search")
struct SQLiteUserCacheSearchTests {
    private func cacheWithRiders() async throws -> (CacheFolder, SQLiteUserCache) {
        let folder = try CacheFolder()
        let cache = folder.cache()
        try await cache.store(CacheSamples.riders, at: CacheSamples.epoch)
        return (folder, cache)
    }

    private func ids(_ page: UserPage) -> Set<String> { Set(page.users.map(\.id.rawValue)) }

    @Test("a prefix finds every user with a word of the name or email starting with it", arguments: [
        ("jo", ["u_000001", "u_000002", "u_000004", "u_000005"]),
        ("jon", ["u_000002"]),
        ("ada", ["u_000003"]),
        ("dupont", ["u_000005"]),
        ("garc", ["u_000001"]),
    ])
    func prefix(query: String, expected: [String]) async throws {
        let (folder, cache) = try await cacheWithRiders()
        defer { folder.remove() }

        let page = try await cache.search(query, page: PageRequest())

        #expect(ids(page) == Set(expected))
        #expect(page.total == expected.count)
        #expect(page.source == .cache)
    }

    @Test("case and diacritics are ignored both ways", arguments: [
        ("jose", "u_000001"), ("JOSÉ", "u_000001"), ("garcía", "u_000001"), ("zoe", "u_000004"),
        ("chloe", "u_000005"), ("CHLOÉ", "u_000005"),
    ])
    func folding(query: String, expected: String) async throws {
        let (folder, cache) = try await cacheWithRiders()
        defer { folder.remove() }

        #expect(ids(try await cache.search(query, page: PageRequest())) == [expected])
    }

    @Test("every word must match: 'jo gar' finds José García only")
    func allWords() async throws {
        let (folder, cache) = try await cacheWithRiders()
        defer { folder.remove() }

        #expect(ids(try await cache.search("jo gar", page: PageRequest())) == ["u_000001"])
    }

    @Test("a match in the display name ranks above a match in the email only")
    func ranking() async throws {
        let (folder, cache) = try await cacheWithRiders()
        defer { folder.remove() }

        let page = try await cache.search("johanna jo", page: PageRequest())
        #expect(page.users.map(\.id) == ["u_000005"])
        let jo = try await cache.search("jo", page: PageRequest())
        #expect(jo.users.last?.id == "u_000005", "Chloé matches 'jo' only through her email")
    }

    @Test("name matches come first, then email-only matches, each in the order first cached, across pages",
          arguments: ["SQLiteUserCache", "InMemoryUserCache"])
    func groupsAcrossPages(kind: String) async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        // The in-memory fake orders its results as the SQLite cache does.
        let cache: any UserCache = kind == "SQLiteUserCache" ? folder.cache() : InMemoryUserCache()
        // Every email starts with "rider"; only the even-numbered display names do.
        try await cache.store((1...12).map { CacheSamples.user($0, $0.isMultiple(of: 2) ? "Rider \($0)" : "Pat \($0)") },
                              at: CacheSamples.epoch)
        // Stored again later: an update keeps the user's place.
        try await cache.store([CacheSamples.user(2, "Rider 2")], at: CacheSamples.epoch.addingTimeInterval(60))

        var pages: [UserPage] = []
        for number in 1...4 {
            pages.append(try await cache.search("rider", page: PageRequest(page: number, limit: 4)))
        }

        let numbers = pages.map { $0.users.map { Int($0.id.rawValue.dropFirst(2)) ?? 0 } }
        #expect(numbers == [[2, 4, 6, 8], [10, 12, 1, 3], [5, 7, 9, 11], []])
        #expect(pages.map(\.total) == [12, 12, 12, 12])
        #expect(pages.map(\.hasNext) == [true, true, false, false])
    }

    @Test("a two-word query: users with both words in the name first, then the rest")
    func groupsForTwoWords() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        let cache = folder.cache()
        try await cache.store([
            CacheSamples.user(1, "Ana Silva", email: "garcia.ana@example.com"),
            CacheSamples.user(2, "Ana García", email: "ana@example.com"),
            CacheSamples.user(3, "Bea García", email: "bea@example.com"),
        ], at: CacheSamples.epoch)

        let page = try await cache.search("ana gar", page: PageRequest())

        #expect(page.users.map(\.id) == ["u_000002", "u_000001"])
        #expect(page.total == 2 && !page.hasNext)
    }

    @Test("FTS5 syntax in the query is searched for as words, never run", arguments: [
        "\"jo", "jo*", "jo OR ada", "NEAR(jo ada)", "display_name:jo", "jo AND", "*", "(", "-jo", "^jo", "'; DROP TABLE user; --",
    ])
    func hostileInput(query: String) async throws {
        let (folder, cache) = try await cacheWithRiders()
        defer { folder.remove() }

        let page = try await cache.search(query, page: PageRequest())

        #expect(page.total == page.users.count)
        #expect(try await cache.statistics().entries == CacheSamples.riders.count)
    }

    @Test("a query with no words finds nothing")
    func noWords() async throws {
        let (folder, cache) = try await cacheWithRiders()
        defer { folder.remove() }

        #expect(try await cache.search("  !? ", page: PageRequest()).total == 0)
    }

    @Test("pages split the results like the server: total, page, limit and hasNext")
    func pagination() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        let cache = folder.cache()
        try await cache.store((1...25).map { CacheSamples.user($0, "Rider \($0)") }, at: CacheSamples.epoch)

        let first = try await cache.search("rider", page: PageRequest(page: 1, limit: 10))
        let last = try await cache.search("rider", page: PageRequest(page: 3, limit: 10))
        let beyond = try await cache.search("rider", page: PageRequest(page: 4, limit: 10))

        #expect(first.users.count == 10 && first.total == 25 && first.hasNext)
        #expect(last.users.count == 5 && !last.hasNext && last.page == 3 && last.limit == 10)
        #expect(beyond.users.isEmpty && beyond.total == 25 && !beyond.hasNext)
        let all = Set((first.users + (try await cache.search("rider", page: PageRequest(page: 2, limit: 10))).users
            + last.users).map(\.id))
        #expect(all.count == 25, "pages neither overlap nor skip")
        #expect(first.oldestStoredAt == CacheSamples.epoch)
    }

    @Test("a renamed user is found by the new name and no longer by the old")
    func indexFollowsUpdates() async throws {
        let (folder, cache) = try await cacheWithRiders()
        defer { folder.remove() }
        var ada = CacheSamples.riders[2]
        ada.displayName = "Augusta King"

        try await cache.store([ada], at: CacheSamples.epoch)

        #expect(ids(try await cache.search("augusta", page: PageRequest())) == ["u_000003"])
        #expect(try await cache.search("lovelace", page: PageRequest()).total == 0)
    }
}
