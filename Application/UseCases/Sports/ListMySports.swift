import Foundation
import RiderDomain

/// Lists the sports the signed-in rider practises, with their levels.
public struct ListMySports: Sendable {
    let api: APIClient

    package init(api: APIClient) { self.api = api }

    /// - Returns: the rider's sports in the order they were added.
    /// - Throws: `RiderError.notSignedIn`, `RiderError.sessionExpired`, network errors,
    ///   `RiderError.malformedResponse(_:)` for a level this client does not know.
    public func callAsFunction() async throws -> [RiderSport] {
        try await api.send(API.mySports)
    }
}
