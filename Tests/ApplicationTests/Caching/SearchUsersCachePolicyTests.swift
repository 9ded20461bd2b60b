import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("SearchUsers cache policies and offline answers")
struct SearchUsersCachePolicyTests {
    static let unreachable = RiderError.serverUnreachable(reason: "connection refused")
    /// A server that is down stays down for every attempt of the GET's retry policy.
    static let attempts = RetryPolicy.standard.maxAttempts

    let harness: UseCaseHarness
    let refreshes = BackgroundRefreshes()

    init() throws {
        harness = try UseCaseHarness.signedIn()
    }

    var searchUsers: SearchUsers {
        SearchUsers(api: harness.api, cache: harness.cache, clock: harness.clock, refreshes: refreshes)
    }

    /// Caches three riders, then moves the clock two minutes on; returns when they were stored.
    @discardableResult
    func cacheRiders() async throws -> Date {
        let storedAt = harness.clock.now
        try await harness.cache.store([
            User(id: "u_000002", email: "jose@example.com", displayName: "José García"),
            User(id: "u_000003", email: "jonas@example.com", displayName: "Jonas Berg"),
            User(id: "u_000004", email: "ada@example.com", displayName: "Ada Lovelace"),
        ], at: storedAt)
        harness.clock.advance(by: 120)
        return storedAt
    }

    static let serverPage = StubReply.successful(Fixtures.userPage(
        users: [Fixtures.user(id: "u_000002", displayName: "José García")], total: 1))

    @Test("by default the server answers, and the page says it came from the network")
    func online() async throws {
        harness.transport.stub(.get, "/users/search", times: 1, with: Self.serverPage)

        let page = try await searchUsers("jo", page: PageRequest())

        #expect(page.source == .network && page.oldestStoredAt == nil)
    }

    @Test("with the server down or too slow, the search answers from the cache, marked offline, with its age",
          arguments: [unreachable, RiderError.timedOut])
    func offline(failure: RiderError) async throws {
        let storedAt = try await cacheRiders()
        harness.transport.stub(.get, "/users/search", times: Self.attempts, with: .failure(failure))

        let page = try await searchUsers("jo", page: PageRequest())

        #expect(page.source == .offline(reason: failure))
        #expect(Set(page.users.map(\.id)) == ["u_000002", "u_000003"])
        #expect(page.total == 2 && !page.hasNext)
        #expect(page.oldestStoredAt == storedAt)
    }

    @Test("offline with nothing cached is an empty page marked offline, not an error")
    func offlineEmpty() async throws {
        harness.transport.stub(.get, "/users/search", times: Self.attempts, with: .failure(Self.unreachable))

        let page = try await searchUsers("zz", page: PageRequest())

        #expect(page.users.isEmpty && page.source == .offline(reason: Self.unreachable))
    }

    @Test("an expired session is reported, never answered from the cache")
    func refusalIsNotOffline() async throws {
        try await cacheRiders()
        harness.transport.stub(.get, "/users/search", with: .problem(status: 401))
        harness.stubTokenEndpoint(with: .json(["error": "invalid_grant"], status: 400))

        await #expect(throws: RiderError.sessionExpired) { try await searchUsers("jo", page: PageRequest()) }
    }

    @Test("network-only with the server down fails")
    func networkOnlyDown() async throws {
        try await cacheRiders()
        harness.transport.stub(.get, "/users/search", times: Self.attempts, with: .failure(Self.unreachable))

        await #expect(throws: Self.unreachable) {
            try await searchUsers("jo", page: PageRequest(), policy: .networkOnly)
        }
    }

    @Test("cache-only searches the cache without a request")
    func cacheOnly() async throws {
        try await cacheRiders()

        let page = try await searchUsers("ada", page: PageRequest(), policy: .cacheOnly)

        #expect(page.users.map(\.id) == ["u_000004"] && page.source == .cache)
        #expect(harness.transport.requests.isEmpty)
    }

    @Test("cache-first answers from the cache when it finds something, and asks the server when it finds nothing")
    func cacheFirst() async throws {
        try await cacheRiders()
        harness.transport.stub(.get, "/users/search", times: 1, with: .successful(Fixtures.userPage(users: [])))

        let local = try await searchUsers("jo", page: PageRequest(), policy: .cacheFirst)
        let remote = try await searchUsers("nobody", page: PageRequest(), policy: .cacheFirst)

        #expect(local.source == .cache && local.total == 2)
        #expect(remote.source == .network)
        #expect(harness.transport.requests.count == 1)
    }

    @Test("stale-while-revalidate answers from the cache at once and refreshes the cache in the background")
    func staleWhileRevalidate() async throws {
        try await cacheRiders()
        harness.transport.stub(.get, "/users/search", times: 1, with: .successful(Fixtures.userPage(
            users: [Fixtures.user(id: "u_000002", displayName: "José García Márquez")])))

        let page = try await searchUsers("jose", page: PageRequest(), policy: .staleWhileRevalidate)
        #expect(page.source == .cache && page.users.first?.displayName == "José García")

        await refreshes.waitForAll()
        #expect(try await harness.cache.user(id: "u_000002")?.displayName == "José García Márquez")
    }
}
