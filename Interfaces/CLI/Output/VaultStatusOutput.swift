import Foundation

/// What `rider vault status` reports: never a token, never the passphrase.
struct VaultStatusOutput: Encodable, Sendable {
    let server: String
    let setting: String
    let backend: String
    let reason: String
    let location: String
    /// The keyring item's label, when the session is in the keyring.
    @Nullable var itemLabel: String?
    /// Whether the backend can be read now: the keyring is unlocked, or the passphrase opens the file.
    let unlocked: Bool
    let signedIn: Bool
    @Nullable var userID: String?
    /// Why the backend cannot be read, when it cannot.
    @Nullable var problem: String?
    /// How long the encrypted file stays unlocked after the passphrase is typed, and why not
    /// beyond the process when the kernel keyring cannot be used.
    let unlock: String
    /// Every account stored for the server (or the one asked for), each with its own entry.
    var accounts: [AccountRow] = []

    /// One account's vault entry.
    struct AccountRow: Encodable, Sendable {
        let account: String
        let userID: String
        let active: Bool
        let backend: String
        let location: String
        @Nullable var itemLabel: String?
        let unlocked: Bool
        let signedIn: Bool
        @Nullable var problem: String?
    }

    /// Label and value lines as `session show` and `whoami` print theirs (lower-case labels, one
    /// column); every value made terminal-safe: paths, labels, ids and problems come from files,
    /// the keyring and the server.
    func lines() -> [String] {
        var rows = [
            ("server", server),
            ("vault", "\(backend) (setting: \(setting))"),
            ("why", reason),
            ("location", location),
        ]
        if let itemLabel { rows.append(("item", itemLabel)) }
        rows.append(("unlocked", unlocked ? "yes" : "no"))
        rows.append(("unlock", unlock))
        rows.append(("session", signedIn ? "signed in as \(userID ?? "unknown")" : "none stored"))
        if let problem { rows.append(("problem", problem)) }
        var lines = HumanFormat.block(rows)
        guard accounts.count > 1 || accounts.first?.userID != userID else { return lines }
        lines.append("accounts")
        for row in accounts {
            let state = row.problem.map { "cannot be read: \($0)" } ?? (row.signedIn ? "stored" : "no session stored")
            lines.append("  \(row.active ? "*" : " ") \(row.account.terminalSafe): \(row.backend.terminalSafe), "
                + "\(state.terminalSafe) (\(row.location.terminalSafe))")
        }
        return lines
    }
}
