import Foundation
import RiderDomain

/// A span around each user cache operation (`rider.cache.lookup`, `.store`, `.search`, …) with
/// what it found or kept; never a user's fields or what was searched for.
package struct TracingUserCache: UserCache {
    private let base: any UserCache
    private let tracer: any SpanTracer

    package init(base: any UserCache, tracer: any SpanTracer) {
        self.base = base
        self.tracer = tracer
    }

    package func user(id: UserID) async throws -> Cached<User>? {
        try await tracer.withSpan("rider.cache.lookup", kind: .internal) { span in
            let cached = try await base.user(id: id)
            span.setAttribute("rider.cache.hit", .bool(cached != nil))
            return cached
        }
    }

    package func store(_ users: [User], at date: Date) async throws {
        try await tracer.withSpan("rider.cache.store", kind: .internal) { span in
            span.setAttribute("rider.cache.users", .int(users.count))
            try await base.store(users, at: date)
        }
    }

    package func store(_ user: User, entityTag: EntityTag?, at date: Date) async throws {
        try await tracer.withSpan("rider.cache.store", kind: .internal) { span in
            span.setAttribute("rider.cache.users", .int(1))
            try await base.store(user, entityTag: entityTag, at: date)
        }
    }

    package func markRevalidated(id: UserID, at date: Date) async throws {
        try await tracer.withSpan("rider.cache.revalidate", kind: .internal) { _ in
            try await base.markRevalidated(id: id, at: date)
        }
    }

    package func remove(id: UserID) async throws {
        try await tracer.withSpan("rider.cache.remove", kind: .internal) { _ in try await base.remove(id: id) }
    }

    package func search(_ query: String, page: PageRequest) async throws -> UserPage {
        try await tracer.withSpan("rider.cache.search", kind: .internal) { span in
            let found = try await base.search(query, page: page)
            span.setAttribute("rider.cache.matches", .int(found.total))
            return found
        }
    }

    package func statistics() async throws -> UserCacheStatistics {
        try await tracer.withSpan("rider.cache.statistics", kind: .internal) { _ in try await base.statistics() }
    }

    package func removeAll() async throws {
        try await tracer.withSpan("rider.cache.remove_all", kind: .internal) { _ in try await base.removeAll() }
    }

    package func flush() async throws {
        try await tracer.withSpan("rider.cache.flush", kind: .internal) { _ in try await base.flush() }
    }

    package func close() async { await base.close() }
}
