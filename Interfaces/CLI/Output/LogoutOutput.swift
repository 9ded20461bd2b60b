import RiderKit

/// What `rider logout` reports.
struct LogoutOutput: Encodable, Sendable {
    let wasSignedIn: Bool
    let revokedOnServer: Bool

    enum CodingKeys: String, CodingKey {
        case wasSignedIn = "was_logged_in"
        case revokedOnServer = "revoked_on_server"
    }

    init(_ outcome: Logout.Outcome) {
        wasSignedIn = outcome.wasSignedIn
        revokedOnServer = outcome.revokedOnServer
    }

    var line: String {
        guard wasSignedIn else { return "Not logged in; nothing to do." }
        return revokedOnServer
            ? "Logged out; the session was revoked on the server and removed here."
            : "Logged out here; the server could not be told, so its tokens stay valid until they expire."
    }
}
