import Foundation
import RiderDomain

/// Finds users by name or email, a page at a time, and remembers them in the cache.
public struct SearchUsers: Sendable {
    /// The longest query the API accepts.
    public static let maximumQueryLength = 100

    let api: APIClient
    let cache: any UserCache
    let clock: any Clock

    public init(api: APIClient, cache: any UserCache, clock: any Clock) {
        self.api = api
        self.cache = cache
        self.clock = clock
    }

    /// - Throws: ``RiderError/invalidInput(_:)`` for an empty or over-long query,
    ///   ``RiderError/notSignedIn``, ``RiderError/sessionExpired``, network errors.
    public func callAsFunction(_ query: String, page: PageRequest) async throws -> UserPage {
        let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= Self.maximumQueryLength else {
            throw RiderError.invalidInput([
                FieldProblem(field: "query", message: "must be 1 to \(Self.maximumQueryLength) characters")
            ])
        }
        let result = try await api.send(API.searchUsers(trimmed, page: page))
        try await cache.store(result.users, at: clock.now)
        return result
    }
}
