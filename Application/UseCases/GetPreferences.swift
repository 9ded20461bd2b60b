import Foundation
import RiderDomain

/// Fetches the signed-in rider's notification and visibility settings.
public struct GetPreferences: Sendable {
    let api: APIClient

    package init(api: APIClient) { self.api = api }

    /// - Returns: the settings, with the ones this version does not know kept for saving back.
    /// - Throws: `RiderError.notSignedIn`, `RiderError.sessionExpired`, network errors,
    ///   `RiderError.malformedResponse(_:)`.
    public func callAsFunction() async throws -> Preferences {
        try await api.send(API.myPreferences)
    }
}
