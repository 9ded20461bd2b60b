import Foundation
import RiderDomain

/// How long cached users stay fresh, shared by the use cases that read through the cache.
public struct CacheSettings: Hashable, Sendable {
    /// An entry younger than this is fresh: `CachePolicy.cacheFirst` and
    /// `CachePolicy.staleWhileRevalidate` answer from it without asking the server.
    public var timeToLive: TimeInterval
    /// How long past ``timeToLive`` `CachePolicy.staleWhileRevalidate` may still answer from
    /// an entry while refreshing it (RFC 5861's `stale-while-revalidate`); older entries are
    /// refreshed before answering.
    public var staleWhileRevalidateWindow: TimeInterval

    /// - Parameters:
    ///   - timeToLive: 5 minutes unless told.
    ///   - staleWhileRevalidateWindow: 1 day unless told.
    public init(timeToLive: TimeInterval = 300, staleWhileRevalidateWindow: TimeInterval = 86_400) {
        self.timeToLive = max(0, timeToLive)
        self.staleWhileRevalidateWindow = max(0, staleWhileRevalidateWindow)
    }

    /// Whether `entry` is younger than the time to live at `date`.
    package func isFresh<Value>(_ entry: Cached<Value>, at date: Date) -> Bool {
        entry.age(at: date) < timeToLive
    }

    /// Whether `entry` may still be served stale while it is refreshed.
    package func isWithinStaleWindow<Value>(_ entry: Cached<Value>, at date: Date) -> Bool {
        entry.age(at: date) < timeToLive + staleWhileRevalidateWindow
    }
}
