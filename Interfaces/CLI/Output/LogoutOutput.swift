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
    /// Why the server did not revoke the session, when it was asked: `HTTP 401: invalid_client`
    /// for a refusal or a failure (the provider's status and words), else RiderKit's message.
    @Nullable var revocationError: String?
    /// The revocation endpoint's HTTP status when it answered without revoking.
    @Nullable var revocationStatus: Int?

    init(_ outcome: Logout.Outcome, account: String? = nil, nowActive: String? = nil) {
        wasLoggedIn = outcome.wasSignedIn
        revokedOnServer = outcome.revokedOnServer
        self.account = account
        self.nowActive = nowActive
        let failure = outcome.revocationFailure
        revocationStatus = failure?.status
        revocationError = failure.map { failure in
            failure.status.map { "HTTP \($0)" + (failure.detail.map { ": \($0)" } ?? "") } ?? failure.message
        }
    }

    var line: String {
        guard wasLoggedIn else { return "Not logged in; nothing to do." }
        let who = account.map { " of \($0)" } ?? ""
        let next = nowActive.map { " The active account is now \($0)." } ?? ""
        guard !revokedOnServer else {
            return "Logged out\(who); the session was revoked on the server and removed here." + next
        }
        let said = revocationError.map { " (\($0.terminalSafe))" } ?? ""
        let why = switch revocationStatus {
        case let status? where (400..<500).contains(status) && status != 429: "the server refused to revoke the session" + said
        case .some: "the server failed to revoke the session" + said
        case nil: "the server could not be reached"
        }
        return "Logged out\(who) here; \(why), so its tokens stay valid until they expire." + next
    }
}

/// What `rider logout --all` reports: one outcome per account.
struct LogoutAllOutput: Encodable, Sendable {
    let accounts: [LogoutOutput]
}
