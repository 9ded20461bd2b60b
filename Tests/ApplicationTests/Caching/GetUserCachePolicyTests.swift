import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

/// Each ``CachePolicy`` of ``GetUser`` with the server up, down and too slow, on a manual clock.
@Suite("GetUser cache policies")
struct GetUserCachePolicyTests {
    static let id: UserID = "u_000002"
    static let path = "/users/u_000002"
    static let unreachable = RiderError.serverUnreachable(reason: "connection refused")

    let harness: UseCaseHarness
    let refreshes = BackgroundRefreshes()

    init() throws {
        harness = try UseCaseHarness.signedIn()
    }

    var getUser: GetUser {
        GetUser(api: harness.api, cache: harness.cache, clock: harness.clock,
                settings: CacheSettings(timeToLive: 300, staleWhileRevalidateWindow: 600), refreshes: refreshes)
    }

    /// Puts Grace in the cache at the clock's time with entity tag `"v1"`, then moves the clock by `age`.
    func cacheGrace(age: TimeInterval, entityTag: String? = "\"v1\"") async throws {
        try await harness.cache.store(User(id: Self.id, email: "grace@example.com", displayName: "Grace"),
                                      entityTag: entityTag.map(EntityTag.init(rawValue:)), at: harness.clock.now)
        harness.clock.advance(by: age)
    }

    func stubServer(_ reply: StubReply, times: Int = 1) {
        harness.transport.stub(.get, Self.path, times: times, with: reply)
    }

    static let graceV2 = StubReply.successful(
        Fixtures.user(id: "u_000002", email: "grace@example.com", displayName: "Grace Hopper"), headers: ["ETag": "\"v2\""])

    // MARK: networkOnly

    @Test("network-only asks the server even when a fresh entry is cached, and stores the answer with its ETag")
    func networkOnly() async throws {
        try await cacheGrace(age: 10)
        stubServer(Self.graceV2)

        let result = try await getUser(Self.id, policy: .networkOnly)

        #expect(result.source == .network && !result.isStale)
        #expect(result.displayName == "Grace Hopper")
        #expect(harness.transport.requests.only?.headers["If-None-Match"] == nil)
        let stored = try #require(try await harness.cache.user(id: Self.id))
        #expect(stored.entityTag?.rawValue == "\"v2\"" && stored.storedAt == harness.clock.now)
    }

    @Test("network-only with the server down fails, even with an entry cached")
    func networkOnlyDown() async throws {
        try await cacheGrace(age: 10)
        stubServer(.failure(Self.unreachable), times: RetryPolicy.standard.maxAttempts)

        await #expect(throws: Self.unreachable) { try await getUser(Self.id, policy: .networkOnly) }
    }

    // MARK: cacheFirst

    @Test("cache-first answers a fresh entry from the cache without a request")
    func cacheFirstFresh() async throws {
        try await cacheGrace(age: 299)

        let result = try await getUser(Self.id)

        #expect(result.source == .cache && !result.isStale)
        #expect(result.age(at: harness.clock.now) == 299)
        #expect(harness.transport.requests.isEmpty)
    }

    @Test("cache-first revalidates an expired entry with If-None-Match; a 304 restamps it without a body")
    func cacheFirstRevalidates() async throws {
        try await cacheGrace(age: 301)
        stubServer(.status(304, headers: ["ETag": "\"v1\""]))

        let result = try await getUser(Self.id)

        #expect(result.source == .revalidated && !result.isStale)
        #expect(result.displayName == "Grace")
        #expect(result.storedAt == harness.clock.now)
        #expect(harness.transport.requests.only?.headers["If-None-Match"] == "\"v1\"")
        #expect(try await harness.cache.user(id: Self.id)?.storedAt == harness.clock.now, "the age starts again")
    }

    @Test("cache-first replaces an expired entry the server changed (200 with a new ETag)")
    func cacheFirstChanged() async throws {
        try await cacheGrace(age: 301)
        stubServer(Self.graceV2)

        let result = try await getUser(Self.id)

        #expect(result.source == .network && result.displayName == "Grace Hopper")
        #expect(try await harness.cache.user(id: Self.id)?.entityTag?.rawValue == "\"v2\"")
    }

    @Test("cache-first fetches plainly when the expired entry has no ETag, or nothing is cached")
    func cacheFirstWithoutTag() async throws {
        try await cacheGrace(age: 301, entityTag: nil)
        stubServer(Self.graceV2)

        _ = try await getUser(Self.id)

        #expect(harness.transport.requests.only?.headers["If-None-Match"] == nil)
    }

    @Test("cache-first with the server down fails once the entry has expired (network-first falls back instead)")
    func cacheFirstDown() async throws {
        try await cacheGrace(age: 301)
        stubServer(.failure(Self.unreachable), times: RetryPolicy.standard.maxAttempts)

        await #expect(throws: Self.unreachable) { try await getUser(Self.id) }
    }

    // MARK: networkFirst

    @Test("network-first asks the server first, revalidating the cached entry")
    func networkFirstUp() async throws {
        try await cacheGrace(age: 5)
        stubServer(.status(304))

        let result = try await getUser(Self.id, policy: .networkFirst)

        #expect(result.source == .revalidated)
        #expect(harness.transport.requests.only?.headers["If-None-Match"] == "\"v1\"")
    }

    @Test("network-first falls back to the cache, marked offline and stale, when the server is down or too slow",
          arguments: [unreachable, RiderError.timedOut, RiderError.server(status: 503, detail: nil)])
    func networkFirstFallsBack(failure: RiderError) async throws {
        try await cacheGrace(age: 5)
        if failure.code == .server, case let status = failure.status ?? 0 {
            stubServer(.problem(status: status), times: RetryPolicy.standard.maxAttempts)
        } else {
            stubServer(.failure(failure), times: RetryPolicy.standard.maxAttempts)
        }

        let result = try await getUser(Self.id, policy: .networkFirst)

        #expect(result.isStale)
        guard case .offline = result.source else {
            Issue.record("expected .offline, got \(result.source)")
            return
        }
        #expect(result.displayName == "Grace")
    }

    @Test("network-first does not paper over refusals: a 404 is .notFound even with an entry cached")
    func networkFirstRefusal() async throws {
        try await cacheGrace(age: 5)
        stubServer(.problem(status: 404, detail: "gone"))

        await #expect(throws: RiderError.notFound(detail: "gone")) { try await getUser(Self.id, policy: .networkFirst) }
    }

    @Test("a user the server no longer has (404) is removed from the cache")
    func goneIsForgotten() async throws {
        try await cacheGrace(age: 301)
        stubServer(.problem(status: 404, detail: "gone"))

        await #expect(throws: RiderError.notFound(detail: "gone")) { try await getUser(Self.id) }
        #expect(try await harness.cache.user(id: Self.id) == nil)
    }

    @Test("network-first with the server down and nothing cached fails with the network error")
    func networkFirstNothingCached() async throws {
        stubServer(.failure(Self.unreachable), times: RetryPolicy.standard.maxAttempts)

        await #expect(throws: Self.unreachable) { try await getUser(Self.id, policy: .networkFirst) }
    }

    // MARK: staleWhileRevalidate

    @Test("stale-while-revalidate answers a fresh entry without any request")
    func swrFresh() async throws {
        try await cacheGrace(age: 100)

        let result = try await getUser(Self.id, policy: .staleWhileRevalidate)
        await refreshes.waitForAll()

        #expect(result.source == .cache && !result.isStale)
        #expect(harness.transport.requests.isEmpty)
    }

    @Test("stale-while-revalidate answers a stale entry at once and refreshes it in the background")
    func swrStale() async throws {
        try await cacheGrace(age: 400)
        stubServer(Self.graceV2)

        let result = try await getUser(Self.id, policy: .staleWhileRevalidate)

        #expect(result.source == .cache && result.isStale && result.displayName == "Grace")
        await refreshes.waitForAll()
        #expect(harness.transport.requests.only?.headers["If-None-Match"] == "\"v1\"")
        let refreshed = try #require(try await harness.cache.user(id: Self.id))
        #expect(refreshed.displayName == "Grace Hopper" && refreshed.storedAt == harness.clock.now)
    }

    @Test("stale-while-revalidate answers a stale entry even when the background refresh fails")
    func swrStaleDown() async throws {
        try await cacheGrace(age: 400)
        stubServer(.failure(Self.unreachable), times: RetryPolicy.standard.maxAttempts)

        let result = try await getUser(Self.id, policy: .staleWhileRevalidate)
        await refreshes.waitForAll()

        #expect(result.displayName == "Grace" && result.isStale)
        #expect(harness.transport.requests.count == RetryPolicy.standard.maxAttempts, "the background refresh retried, then gave up")
    }

    @Test("stale-while-revalidate fetches before answering once the entry is past the stale window")
    func swrTooOld() async throws {
        try await cacheGrace(age: 300 + 600 + 1)
        stubServer(Self.graceV2)

        let result = try await getUser(Self.id, policy: .staleWhileRevalidate)

        #expect(result.source == .network && result.displayName == "Grace Hopper")
        #expect(await refreshes.count == 0)
    }

    // MARK: cacheOnly

    @Test("cache-only answers from the cache, stale or not, and never sends a request")
    func cacheOnly() async throws {
        try await cacheGrace(age: 10_000)

        let result = try await getUser(Self.id, policy: .cacheOnly)

        #expect(result.source == .cache && result.isStale)
        #expect(harness.transport.requests.isEmpty)
    }

    @Test("cache-only with nothing cached is .notFound saying so, without a request")
    func cacheOnlyMiss() async throws {
        let error = await #expect(throws: RiderError.self) { try await getUser(Self.id, policy: .cacheOnly) }
        guard let riderError = error, riderError.code == .notFound, case let detail = riderError.detail else {
            Issue.record("expected .notFound, got \(String(describing: error))")
            return
        }
        #expect(detail?.contains("local cache") == true)
        #expect(harness.transport.requests.isEmpty)
    }
}
