import Foundation
import RiderDomain

/// Sets where the signed-in rider usually starts their rides.
public struct SetBaseLocation: Sendable {
    let api: APIClient

    package init(api: APIClient) { self.api = api }

    /// - Parameter location: the new location; it replaces the old one, place name included.
    /// - Returns: the location as the server stored it.
    /// - Throws: `RiderError.invalidInput(_:)` when the server rejects a field,
    ///   `RiderError.notSignedIn`, `RiderError.sessionExpired`, network errors.
    public func callAsFunction(_ location: BaseLocation) async throws -> BaseLocation {
        try await api.send(API.setMyBaseLocation(location))
    }
}
