import Foundation
import RiderDomain

/// Fetches one user by id and remembers it in the cache.
public struct GetUser: Sendable {
    let api: APIClient
    let cache: any UserCache
    let clock: any Clock

    public init(api: APIClient, cache: any UserCache, clock: any Clock) {
        self.api = api
        self.cache = cache
        self.clock = clock
    }

    /// - Throws: ``RiderError/invalidInput(_:)`` for an empty id, ``RiderError/notFound(detail:)``,
    ///   ``RiderError/notSignedIn``, network errors.
    public func callAsFunction(_ id: UserID) async throws -> User {
        guard !id.rawValue.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw RiderError.invalidInput([FieldProblem(field: "id", message: "is required")])
        }
        let user = try await api.send(API.user(id))
        try await cache.store([user], at: clock.now)
        return user
    }
}
