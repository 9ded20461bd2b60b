import Foundation
import RiderDomain

/// Empties the user cache. Nothing is lost: the server has every user; the session is untouched.
public struct ClearCache: Sendable {
    let cache: any UserCache

    public init(cache: any UserCache) { self.cache = cache }

    /// - Returns: how many users were removed.
    /// - Throws: `RiderError.storage(_:)`.
    @discardableResult
    public func callAsFunction() async throws -> Int {
        let before = try await cache.statistics().entries
        try await cache.removeAll()
        return before
    }
}
