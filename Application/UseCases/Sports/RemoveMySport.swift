import Foundation
import RiderDomain

/// Removes a sport from the signed-in rider's sports.
public struct RemoveMySport: Sendable {
    let api: APIClient

    package init(api: APIClient) { self.api = api }

    /// - Parameter id: one of the rider's sports.
    /// - Throws: `RiderError.invalidInput(_:)` for a malformed id (nothing is sent),
    ///   `RiderError.notFound(detail:)` when the rider does not have that sport,
    ///   `RiderError.notSignedIn`, `RiderError.sessionExpired`, network errors.
    public func callAsFunction(_ id: SportID) async throws {
        try await api.send(API.removeMySport(try id.validated()))
    }
}
