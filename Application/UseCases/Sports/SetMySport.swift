import Foundation
import RiderDomain

/// Adds a sport of the catalogue to the signed-in rider's sports, or changes its level.
public struct SetMySport: Sendable {
    let api: APIClient

    package init(api: APIClient) { self.api = api }

    /// - Parameters:
    ///   - id: a sport of the catalogue (`ListSports`).
    ///   - level: how well the rider rides it.
    /// - Returns: the sport as the server now holds it.
    /// - Throws: `RiderError.invalidInput(_:)` for a malformed id (nothing is sent) or a level
    ///   or count the server rejects, `RiderError.notFound(detail:)` when the catalogue has no
    ///   such sport, `RiderError.notSignedIn`, `RiderError.sessionExpired`, network errors.
    public func callAsFunction(_ id: SportID, level: SportLevel) async throws -> RiderSport {
        try await api.send(API.setMySport(try id.validated(), level: level))
    }
}
