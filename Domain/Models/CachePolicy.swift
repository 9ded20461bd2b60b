import Foundation

/// How a read combines the local cache and the server, chosen per call.
///
/// The names follow Apollo iOS and `URLCache` so they read familiarly. `docs/cache.md` has a
/// table of what each returns when the cached entry is fresh, stale, missing, or the server is
/// unreachable.
public enum CachePolicy: String, Hashable, Sendable, CaseIterable {
    /// Always asks the server and stores the answer; never answers from the cache.
    case networkOnly = "network-only"
    /// Answers from the cache while the entry is younger than the time to live; otherwise asks
    /// the server (revalidating with `If-None-Match` when the entry has an entity tag).
    case cacheFirst = "cache-first"
    /// Asks the server first; when the server cannot be reached, answers from the cache and
    /// marks the result stale and offline.
    case networkFirst = "network-first"
    /// Answers from the cache at once, even past the time to live (within the
    /// stale-while-revalidate window), and refreshes the entry in the background (RFC 5861).
    case staleWhileRevalidate = "stale-while-revalidate"
    /// Answers only from the cache and never touches the network.
    case cacheOnly = "cache-only"
}
