import Foundation
import RiderDomain
import RiderInfrastructure
import RiderKit
import Testing
import TestSupport

@Suite("RiderKit.Cache: statistics and clearing")
struct CacheGroupTests {
    @Test("clearing says how many users it removed and leaves the cache empty")
    func clearCountsWhatItRemoved() async throws {
        let users = InMemoryUserCache()
        try await users.store([User(id: Fixtures.userID, email: Fixtures.email, displayName: "Ada"),
                               User(id: Fixtures.otherUserID, email: "grace@example.com", displayName: "Grace")],
                              at: Fixtures.epoch)
        let cache = RiderKit.Cache(cache: users)

        #expect(try await cache.statistics().entries == 2)
        #expect(try await cache.clear() == 2)
        #expect(try await cache.statistics().entries == 0)
        #expect(try await cache.clear() == 0)
    }
}
