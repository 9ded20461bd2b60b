import Foundation
import RiderDomain

/// Reads the signed-in user, from the server unless told otherwise, and remembers it in the cache.
public struct CurrentUser: Sendable {
    /// Asking the server also proves the session still works, which is what `whoami` is for.
    public static let defaultPolicy = CachePolicy.networkOnly

    let api: APIClient
    let sessions: SessionEngine
    let cache: any UserCache
    let clock: any Clock
    let settings: CacheSettings
    let refreshes: BackgroundRefreshes

    package init(api: APIClient, sessions: SessionEngine, cache: any UserCache, clock: any Clock,
                settings: CacheSettings = CacheSettings(), refreshes: BackgroundRefreshes = BackgroundRefreshes()) {
        self.api = api
        self.sessions = sessions
        self.cache = cache
        self.clock = clock
        self.settings = settings
        self.refreshes = refreshes
    }

    /// - Parameter policy: how to combine cache and server; ``defaultPolicy`` unless told. Any
    ///   policy but `CachePolicy.networkOnly` finds the cached entry through the stored
    ///   session's user id (or, after it expired, the expired one's until a logout), so it too
    ///   needs someone signed in.
    /// - Returns: the user, saying where it came from and how old it is.
    /// - Throws: `RiderError.notSignedIn`, `RiderError.sessionExpired`, network errors,
    ///   `RiderError.notFound(detail:)` for `CachePolicy.cacheOnly` with nothing cached,
    ///   `RiderError.storage(_:)`.
    public func callAsFunction(policy: CachePolicy = defaultPolicy) async throws -> Cached<User> {
        // The default, on every `whoami`: straight to the download, without building the read's
        // closures and the copies of the client they capture (as CachedRead would do the same).
        if policy == .networkOnly { return try await download() }
        let read = CachedRead<User>(
            lookup: { [sessions, cache] in
                // After an expiry the account is still known (its cache stays until a logout), and the
                // download meets the expiry, where a re-authentication can renew the session.
                guard let session = try await sessions.standing().session else { throw RiderError.notSignedIn }
                return try await cache.user(id: session.userID)
            },
            download: { _ in try await download() },
            notCached: {
                .notFound(detail: "your account is not in the local cache yet; read it once while online")
                    .suggesting(.readWhileOnline)
            },
            settings: settings, clock: clock, refreshes: refreshes, key: "me")
        return try await read(policy)
    }

    /// Asks the server and stores the answer.
    private func download() async throws -> Cached<User> {
        let user = try await api.send(API.me(in: api.configuration))
        let now = clock.now
        try await cache.store([user], at: now)
        return Cached(value: user, storedAt: now, source: .network)
    }
}
