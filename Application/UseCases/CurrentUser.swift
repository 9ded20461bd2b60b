import Foundation
import RiderDomain

/// Fetches the signed-in user from the server and remembers it in the cache.
public struct CurrentUser: Sendable {
    let api: APIClient
    let cache: any UserCache
    let clock: any Clock

    public init(api: APIClient, cache: any UserCache, clock: any Clock) {
        self.api = api
        self.cache = cache
        self.clock = clock
    }

    /// - Throws: ``RiderError/notSignedIn``, ``RiderError/sessionExpired``, network errors.
    public func callAsFunction() async throws -> User {
        let user = try await api.send(API.me(in: api.configuration))
        try await cache.store([user], at: clock.now)
        return user
    }
}
