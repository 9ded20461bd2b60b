import RiderKit

/// What `rider logout` reports.
struct LogoutOutput: Encodable, Sendable {
    /// `Logout.Outcome.wasSignedIn`, named for the key scripts already read: `was_logged_in`.
    let wasLoggedIn: Bool
    let revokedOnServer: Bool

    init(_ outcome: Logout.Outcome) {
        wasLoggedIn = outcome.wasSignedIn
        revokedOnServer = outcome.revokedOnServer
    }

    var line: String {
        guard wasLoggedIn else { return "Not logged in; nothing to do." }
        return revokedOnServer
            ? "Logged out; the session was revoked on the server and removed here."
            : "Logged out here; the server could not be told, so its tokens stay valid until they expire."
    }
}
