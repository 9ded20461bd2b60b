import Foundation
import RiderApplication
import RiderDomain
import RiderInfrastructure
import RiderKit
import RiderReferenceServer
import Testing
import TestSupport

/// The SQLite cache under RiderKit as `RiderKit.live` wires it (the default HTTP transport) and the
/// reference server.
@Suite("SQLite cache against the reference server")
struct SQLiteCacheAgainstReferenceServerTests {
    @Test("an expired user is revalidated over the wire: If-None-Match gets 304 and the entry's age restarts")
    func revalidation() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        try await withReferenceServer(.init(seedUsers: 20)) { server in
            // A time to live of zero: every cached entry is already expired.
            let kit = try server.riderKit(cache: CacheConfiguration(storage: .sqlite(folder.file),
                                                                    settings: CacheSettings(timeToLive: 0)))
            _ = try await kit.login(.referenceDemo)

            let first = try await kit.getUser("u_000007")
            let second = try await kit.getUser("u_000007")

            #expect(first.source == .network && first.entityTag != nil)
            #expect(second.source == .revalidated)
            #expect(second.value == first.value && second.entityTag == first.entityTag)
            #expect(second.storedAt >= first.storedAt)
        }
    }

    @Test("search online fills the cache; with the server stopped the same search answers from it, marked offline")
    func offlineSearch() async throws {
        let folder = try CacheFolder()
        defer { folder.remove() }
        try await withReferenceServer(.init(seedUsers: 300)) { server in
            let kit = try server.riderKit(cache: CacheConfiguration(storage: .sqlite(folder.file)))
            _ = try await kit.login(.referenceDemo)

            let online = try await kit.searchUsers("jo", page: PageRequest(limit: 50))
            #expect(online.source == .network && !online.users.isEmpty)
            await server.stop()

            let offline = try await kit.searchUsers("jo", page: PageRequest(limit: 50))

            guard case .offline(reason: .serverUnreachable) = offline.source else {
                Issue.record("expected an offline page, got \(offline.source)")
                return
            }
            #expect(Set(offline.users.map(\.id)) == Set(online.users.map(\.id)))
            #expect(offline.oldestStoredAt != nil)
        }
    }
}
