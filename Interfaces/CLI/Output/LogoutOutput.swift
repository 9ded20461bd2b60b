import RiderKit

/// What `rider logout` reports.
struct LogoutOutput: Encodable, Sendable {
    /// `Logout.Outcome.wasSignedIn`, named for the key scripts already read: `was_logged_in`.
    let wasLoggedIn: Bool
    let revokedOnServer: Bool
    /// The account logged out of, as a person names it.
    @Nullable var account: String?
    /// The server's active account afterwards, when another one took over.
    @Nullable var nowActive: String?

    init(_ outcome: Logout.Outcome, account: String? = nil, nowActive: String? = nil) {
        wasLoggedIn = outcome.wasSignedIn
        revokedOnServer = outcome.revokedOnServer
        self.account = account
        self.nowActive = nowActive
    }

    var line: String {
        guard wasLoggedIn else { return "Not logged in; nothing to do." }
        let who = account.map { " of \($0)" } ?? ""
        let next = nowActive.map { " The active account is now \($0)." } ?? ""
        return (revokedOnServer
            ? "Logged out\(who); the session was revoked on the server and removed here."
            : "Logged out\(who) here; the server could not be told, so its tokens stay valid until they expire.") + next
    }
}

/// What `rider logout --all` reports: one outcome per account.
struct LogoutAllOutput: Encodable, Sendable {
    let accounts: [LogoutOutput]
}
