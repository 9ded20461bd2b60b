import Foundation
import RiderDomain

/// Fetches where the signed-in rider usually starts their rides.
public struct GetBaseLocation: Sendable {
    let api: APIClient

    package init(api: APIClient) { self.api = api }

    /// - Returns: the location, or `nil` when the rider has not set one.
    /// - Throws: `RiderError.notSignedIn`, `RiderError.sessionExpired`, network errors,
    ///   `RiderError.malformedResponse(_:)`.
    public func callAsFunction() async throws -> BaseLocation? {
        do {
            return try await api.send(API.myBaseLocation)
        } catch RiderError.Code.notFound {
            return nil
        }
    }
}
