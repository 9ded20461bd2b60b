import Foundation
import RiderKit

/// One row of `rider session list`: a stored account and what its session says, never a token.
struct AccountSessionOutput: Encodable, Sendable {
    let server: String
    /// The protected resource the session's tokens are for (RFC 8707), when its sign-in named one.
    @Nullable var resource: String?
    let account: String
    let userID: String
    @Nullable var email: String?
    let active: Bool
    /// `signed_in` (also when only its access token expired and it renews itself on next use),
    /// `expired` (over: it cannot renew), `missing` or `unreadable`.
    let state: String
    @Nullable var expiresAt: Date?
    let refreshable: Bool
    /// The backend, in a word (`secret-service`, `encrypted-file`, `memory`), as `session show` says it.
    let vault: String
    /// Where that backend keeps it, in words (the file's path, the keyring's item).
    let vaultLocation: String
    /// Why the session could not be read (a passphrase that does not open its file, a locked keyring).
    @Nullable var problem: String?

    init(_ account: Account, session: Result<Session?, any Error>, vault: String, vaultLocation: String, now: Date) {
        server = account.server
        self.account = account.displayName
        userID = account.id.rawValue
        email = account.email
        active = account.isActive
        self.vault = vault
        self.vaultLocation = vaultLocation
        switch session {
        case .success(let session?):
            // An expired access token with a refresh token is a session that renews itself on its
            // next use, not an expired one.
            state = session.isExpired(at: now) && session.refreshToken == nil ? "expired" : "signed_in"
            expiresAt = session.expiresAt
            refreshable = session.refreshToken != nil
            resource = session.resource?.absoluteString
        case .success(nil):
            state = "missing"
            refreshable = false
            problem = "its vault holds no session: log in again"
        case .failure(let error):
            state = "unreadable"
            refreshable = false
            problem = (error as? RiderError).map(ErrorAdvice.message(for:)) ?? "\(type(of: error))"
        }
    }

    /// The row's cells under ``AccountListOutput``'s titles.
    func row(now: Date) -> [String] {
        let expiry = expiresAt.map { expiresAt in
            refreshable && expiresAt <= now ? "renews on next use" : HumanFormat.timeLeft(until: expiresAt, from: now)
        } ?? (state == "signed_in" ? "unknown" : "-")
        let renewal = switch state {
        case "signed_in", "expired": refreshable ? "yes" : "no"
        default: problem ?? "-"
        }
        // A resource is on its server's origin and says more: which of the server's resources.
        return [active ? "*" : "", resource ?? server, account, state.replacingOccurrences(of: "_", with: " "), expiry, renewal, vault]
    }
}

/// What `rider session list` prints: every stored account on every server, the active one of each
/// server marked.
struct AccountListOutput: Encodable, Sendable {
    let sessions: [AccountSessionOutput]

    func lines(now: Date, on terminal: TerminalOutput) -> [String] {
        guard !sessions.isEmpty else { return ["No account is signed in. Run `rider login`."] }
        // Titles in capitals, as the users and config tables have theirs.
        let columns = ["", "SERVER", "ACCOUNT", "STATE", "EXPIRES", "REFRESHES", "VAULT"]
        let rows = sessions.map { $0.row(now: now) }
        guard terminal.usesTables else { return HumanFormat.columns([columns] + rows) }
        return TextTable(columns: columns.map { TextTable.Column(title: $0) }, rows: rows).lines(style: terminal.style)
    }
}
