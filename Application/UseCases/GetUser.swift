import Foundation
import RiderDomain

/// Reads one user by id through the cache, under a `CachePolicy` chosen per call.
public struct GetUser: Sendable {
    /// Profiles of other riders change rarely, and an expired entry is revalidated cheaply
    /// with its entity tag.
    public static let defaultPolicy = CachePolicy.cacheFirst

    let api: APIClient
    let cache: any UserCache
    let clock: any Clock
    let settings: CacheSettings
    let refreshes: BackgroundRefreshes

    /// - Parameters:
    ///   - api: asks the server.
    ///   - cache: where users seen are kept and looked up.
    ///   - clock: tells whether a cached entry is still fresh.
    ///   - settings: time to live and stale window.
    ///   - refreshes: where `CachePolicy.staleWhileRevalidate` runs its background refreshes.
    package init(api: APIClient, cache: any UserCache, clock: any Clock, settings: CacheSettings = CacheSettings(),
                refreshes: BackgroundRefreshes = BackgroundRefreshes()) {
        self.api = api
        self.cache = cache
        self.clock = clock
        self.settings = settings
        self.refreshes = refreshes
    }

    /// - Parameters:
    ///   - id: the user's id.
    ///   - policy: how to combine cache and server; ``defaultPolicy`` unless told.
    /// - Returns: the user, saying where it came from and how old it is.
    /// - Throws: `RiderError.invalidInput(_:)` for an empty id or a dot segment (`.`, `..`), `RiderError.notFound(detail:)`
    ///   (also for `CachePolicy.cacheOnly` when the user is not cached), `RiderError.notSignedIn`,
    ///   network errors, `RiderError.storage(_:)`.
    public func callAsFunction(_ id: UserID, policy: CachePolicy = defaultPolicy) async throws -> Cached<User> {
        guard !id.rawValue.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw RiderError.invalidInput([FieldProblem(field: "id", message: "is required")])
        }
        // `.` and `..` would make `/users/..` a request for another path, sent with the bearer token.
        guard id.rawValue != ".", id.rawValue != ".." else {
            throw RiderError.invalidInput([FieldProblem(field: "id", message: "is not a user id")])
        }
        let read = CachedRead<User>(
            lookup: { [cache] in try await cache.user(id: id) },
            download: { [api, cache, clock] cached in
                try await Self.download(id, revalidating: cached, api: api, cache: cache, clock: clock)
            },
            notCached: { .notFound(detail: "\(id) is not in the local cache (the cache-only policy never asks the server)") },
            settings: settings, clock: clock, refreshes: refreshes, key: "user:\(id.rawValue)")
        return try await read(policy)
    }

    /// `GET /users/{id}`, conditional on the cached entity tag; stores what comes back.
    private static func download(_ id: UserID, revalidating cached: Cached<User>?, api: APIClient,
                                 cache: any UserCache, clock: any Clock) async throws -> Cached<User> {
        let response: ConditionalResponse<User>
        do {
            response = try await api.send(API.user(id, ifNoneMatch: cached?.entityTag))
        } catch let error as RiderError where error.code == .notFound {
            // Gone on the server: offline searches must not keep showing it.
            if cached != nil { try await cache.remove(id: id) }
            throw error
        }
        let now = clock.now
        switch response {
        case .notModified:
            guard var confirmed = cached else {
                throw RiderError.malformedResponse("304 Not Modified to a request that had no If-None-Match")
            }
            try await cache.markRevalidated(id: id, at: now)
            confirmed.storedAt = now
            return confirmed.served(from: .revalidated, isStale: false)
        case .modified(let user, let entityTag):
            try await cache.store(user, entityTag: entityTag, at: now)
            return Cached(value: user, storedAt: now, entityTag: entityTag, source: .network)
        }
    }
}
