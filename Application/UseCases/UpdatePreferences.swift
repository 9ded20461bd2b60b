import Foundation
import RiderDomain

/// Changes the signed-in rider's notification and visibility settings without touching the
/// settings this version of RiderKit does not know.
package struct UpdatePreferences: Sendable {
    let api: APIClient

    package init(api: APIClient) { self.api = api }

    /// Reads the current settings, lets `change` edit them, and saves the result; settings
    /// unknown to this client go back exactly as the server sent them.
    /// - Parameter change: edits the typed settings.
    /// - Returns: the settings as the server stored them.
    /// - Throws: `RiderError.invalidInput(_:)` when the server rejects a value,
    ///   `RiderError.notSignedIn`, `RiderError.sessionExpired`, network errors.
    package func callAsFunction(_ change: @Sendable (inout Preferences) -> Void) async throws -> Preferences {
        var preferences = try await api.send(API.myPreferences)
        change(&preferences)
        return try await api.send(API.setMyPreferences(preferences))
    }
}
