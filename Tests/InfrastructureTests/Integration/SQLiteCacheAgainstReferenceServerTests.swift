import Foundation
import RiderApplication
import RiderDomain
import RiderInfrastructure
import RiderReferenceServer
import Testing

/// The SQLite cache under the real use cases, the default HTTP transport and the reference server.
@Suite("SQLite cache against the reference server")
struct SQLiteCacheAgainstReferenceServerTests {
    @Test("an expired user is revalidated over the wire: If-None-Match gets 304 and the entry's age restarts")
    func revalidation() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        let harness = try await ReferenceServerHarness.start(.init(seedUsers: 20), cache: folder.cache())
        defer { Task { await harness.stop() } }
        _ = try await harness.login(ReferenceServerHarness.demo)
        // A time to live of zero: every cached entry is already expired.
        let getUser = GetUser(api: harness.client, cache: harness.cache, clock: SystemClock(),
                              settings: CacheSettings(timeToLive: 0))

        let first = try await getUser("u_000007")
        let second = try await getUser("u_000007")

        #expect(first.source == .network && first.entityTag != nil)
        #expect(second.source == .revalidated)
        #expect(second.value == first.value && second.entityTag == first.entityTag)
        #expect(second.storedAt >= first.storedAt)
    }

    @Test("search online fills the cache; with the server stopped the same search answers from it, marked offline")
    func offlineSearch() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        let harness = try await ReferenceServerHarness.start(.init(seedUsers: 300), cache: folder.cache())
        _ = try await harness.login(ReferenceServerHarness.demo)

        let online = try await harness.searchUsers("jo", page: PageRequest(limit: 50))
        #expect(online.source == .network && !online.users.isEmpty)
        await harness.stop()

        let offline = try await harness.searchUsers("jo", page: PageRequest(limit: 50))

        guard case .offline(reason: .serverUnreachable) = offline.source else {
            Issue.record("expected an offline page, got \(offline.source)")
            return
        }
        #expect(Set(offline.users.map(\.id)) == Set(online.users.map(\.id)))
        #expect(offline.oldestStoredAt != nil)
    }
}
