import Foundation
import RiderDomain

/// The cache policies for a read of one value by key, written once for every use case that
/// reads through the cache (see the table in `docs/cache.md`).
struct CachedRead<Value: Sendable>: Sendable {
    /// Reads the cached entry, or `nil`.
    var lookup: @Sendable () async throws -> Cached<Value>?
    /// Asks the server, revalidating the given entry when it has an entity tag, and stores
    /// the answer. Returns it with ``DataSource/network`` or ``DataSource/revalidated``.
    var download: @Sendable (Cached<Value>?) async throws -> Cached<Value>
    /// Says what is missing when ``CachePolicy/cacheOnly`` finds nothing.
    var notCached: @Sendable () -> RiderError

    let settings: CacheSettings
    let clock: any Clock
    let refreshes: BackgroundRefreshes
    /// Names the entry for ``BackgroundRefreshes`` (one refresh per key at a time).
    let key: String

    func callAsFunction(_ policy: CachePolicy) async throws -> Cached<Value> {
        switch policy {
        case .networkOnly:
            return try await download(nil)
        case .cacheOnly:
            guard let cached = try await lookup() else { throw notCached() }
            return served(cached)
        case .cacheFirst:
            let cached = try await lookup()
            if let cached, settings.isFresh(cached, at: clock.now) { return served(cached) }
            return try await download(cached)
        case .networkFirst:
            let cached = try await lookup()
            return try await downloadElseFallBack(to: cached)
        case .staleWhileRevalidate:
            let cached = try await lookup()
            guard let cached, settings.isWithinStaleWindow(cached, at: clock.now) else {
                // Missing, or too old to answer with before asking (RFC 5861): read network-first.
                return try await downloadElseFallBack(to: cached)
            }
            let answer = served(cached)
            if answer.isStale {
                let download = self.download
                await refreshes.start(key) { _ = try? await download(cached) }
            }
            return answer
        }
    }

    /// Downloads; when the server cannot answer and `cached` exists, answers with it, marked
    /// stale and offline.
    private func downloadElseFallBack(to cached: Cached<Value>?) async throws -> Cached<Value> {
        do {
            return try await download(cached)
        } catch let error as RiderError where error.allowsCacheFallback {
            guard let cached else { throw error }
            return cached.served(from: .offline(reason: error), isStale: true)
        }
    }

    private func served(_ cached: Cached<Value>) -> Cached<Value> {
        cached.served(from: .cache, isStale: !settings.isFresh(cached, at: clock.now))
    }
}
