import Foundation
import RiderDomain

/// Finds users by name or email, a page at a time, and remembers them in the cache; answers
/// from the cache (marked offline) when the server cannot be reached.
public struct SearchUsers: Sendable {
    /// The longest query the API accepts.
    public static let maximumQueryLength = 100
    /// The server knows every user; the cache only those seen here, so it is the fallback.
    public static let defaultPolicy = CachePolicy.networkFirst

    let api: APIClient
    let cache: any UserCache
    let clock: any Clock
    let refreshes: BackgroundRefreshes

    package init(api: APIClient, cache: any UserCache, clock: any Clock,
                refreshes: BackgroundRefreshes = BackgroundRefreshes()) {
        self.api = api
        self.cache = cache
        self.clock = clock
        self.refreshes = refreshes
    }

    /// Policies for a search: the cache can never tell whether it holds every match, so
    /// `CachePolicy.cacheFirst` answers from it only when it finds something, and
    /// `CachePolicy.staleWhileRevalidate` answers from it at once (when it finds something)
    /// and runs the server search in the background to refresh the cache.
    ///
    /// - Parameters:
    ///   - query: 1 to 100 characters after trimming.
    ///   - page: which page.
    ///   - policy: how to combine cache and server; ``defaultPolicy`` unless told.
    /// - Returns: the page; its `UserPage.source` says whether it came from the cache.
    /// - Throws: `RiderError.invalidInput(_:)` for an empty or over-long query,
    ///   `RiderError.notSignedIn`, `RiderError.sessionExpired`, network errors (when there is
    ///   no fallback), `RiderError.storage(_:)`.
    public func callAsFunction(_ query: String, page: PageRequest, policy: CachePolicy = defaultPolicy)
        async throws -> UserPage
    {
        let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= Self.maximumQueryLength else {
            throw RiderError.invalidInput([
                FieldProblem(field: "query", message: "must be 1 to \(Self.maximumQueryLength) characters")
            ])
        }
        switch policy {
        case .networkOnly:
            return try await download(trimmed, page: page)
        case .cacheOnly:
            return try await cache.search(trimmed, page: page)
        case .networkFirst:
            do {
                return try await download(trimmed, page: page)
            } catch let error as RiderError where error.allowsCacheFallback {
                // A cache that cannot answer either leaves the network error as the one to report.
                guard var local = try? await cache.search(trimmed, page: page) else { throw error }
                local.source = .offline(reason: error)
                return local
            }
        case .cacheFirst, .staleWhileRevalidate:
            let local = try await cache.search(trimmed, page: page)
            guard local.total > 0 else { return try await download(trimmed, page: page) }
            if policy == .staleWhileRevalidate {
                await refreshes.start("search:\(page.page):\(page.limit):\(trimmed)") { [self] in
                    _ = try? await download(trimmed, page: page)
                }
            }
            return local
        }
    }

    private func download(_ query: String, page: PageRequest) async throws -> UserPage {
        let result = try await api.send(API.searchUsers(query, page: page))
        try await cache.store(result.users, at: clock.now)
        return result
    }
}
