import Foundation
import RiderDomain

/// Fetches the signed-in user's rider profile, with the entity tag an edit needs.
public struct GetRider: Sendable {
    let api: APIClient

    package init(api: APIClient) { self.api = api }

    /// - Throws: `RiderError.notSignedIn`, `RiderError.sessionExpired`, network errors.
    public func callAsFunction() async throws -> Rider {
        try await api.send(API.myRider)
    }
}
