import Foundation
import RiderDomain

/// Creates an account. Does not sign in.
public struct Register: Sendable {
    let api: APIClient

    package init(api: APIClient) { self.api = api }

    /// - Returns: the new account's id.
    /// - Throws: `RiderError.invalidInput(_:)` (checked locally first, then by the server),
    ///   `RiderError.alreadyExists(detail:)` when the email is taken, network errors.
    public func callAsFunction(_ registration: Registration) async throws -> UserID {
        try registration.validate()
        return try await api.send(API.register(registration))
    }
}
