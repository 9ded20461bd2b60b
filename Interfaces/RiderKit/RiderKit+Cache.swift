import Foundation
import RiderDomain

extension RiderKit {
    /// The user cache: what it holds, and emptying it (`rider.cache`, as `rider cache stats|clear`).
    ///
    /// Nothing here is lost for good: the server has every user, and the session is untouched.
    public struct Cache: Sendable {
        let cache: any UserCache

        /// - Parameter cache: the user cache RiderKit reads through.
        package init(cache: any UserCache) { self.cache = cache }

        /// Reports what the user cache holds and how well it has served.
        /// - Returns: entries, size on disk, oldest entry, hits and misses.
        /// - Throws: `RiderError.storage(_:)`.
        public func statistics() async throws -> UserCacheStatistics {
            try await cache.statistics()
        }

        /// Empties the user cache; the session is kept.
        /// - Returns: how many users were removed.
        /// - Throws: `RiderError.storage(_:)`.
        @discardableResult
        public func clear() async throws -> Int {
            let before = try await cache.statistics().entries
            try await cache.removeAll()
            return before
        }
    }
}
