import Foundation
import RiderDomain

/// Reports what the user cache holds and how well it has served.
public struct GetCacheStatistics: Sendable {
    let cache: any UserCache

    public init(cache: any UserCache) { self.cache = cache }

    /// - Returns: entries, size on disk, oldest entry, hits and misses.
    /// - Throws: `RiderError.storage(_:)`.
    public func callAsFunction() async throws -> UserCacheStatistics {
        try await cache.statistics()
    }
}
