import Foundation
import RiderDomain

/// Tells a `MetricsRecorder` whether each cache lookup by id found the user; everything else
/// goes to `base` unchanged.
package struct MeasuringUserCache: UserCache {
    private let base: any UserCache
    private let metrics: any MetricsRecorder

    package init(base: any UserCache, metrics: any MetricsRecorder) {
        self.base = base
        self.metrics = metrics
    }

    package func user(id: UserID) async throws -> Cached<User>? {
        let cached = try await base.user(id: id)
        metrics.record(.cacheLookup(hit: cached != nil))
        return cached
    }

    package func store(_ users: [User], at date: Date) async throws { try await base.store(users, at: date) }

    package func store(_ user: User, entityTag: EntityTag?, at date: Date) async throws {
        try await base.store(user, entityTag: entityTag, at: date)
    }

    package func markRevalidated(id: UserID, at date: Date) async throws {
        try await base.markRevalidated(id: id, at: date)
    }

    package func remove(id: UserID) async throws { try await base.remove(id: id) }

    package func search(_ query: String, page: PageRequest) async throws -> UserPage {
        try await base.search(query, page: page)
    }

    package func statistics() async throws -> UserCacheStatistics { try await base.statistics() }

    package func removeAll() async throws { try await base.removeAll() }

    package func flush() async throws { try await base.flush() }

    package func close() async { await base.close() }
}
