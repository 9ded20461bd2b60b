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

    /// Every value made terminal-safe: paths, labels, ids and problems come from files, the
    /// keyring and the server.
    func lines() -> [String] {
        var lines = [
            "Server:    \(server.terminalSafe)",
            "Vault:     \(backend.terminalSafe) (setting: \(setting.terminalSafe))",
            "Why:       \(reason.terminalSafe)",
            "Location:  \(location.terminalSafe)",
        ]
        if let itemLabel { lines.append("Item:      \(itemLabel.terminalSafe)") }
        lines.append("Unlocked:  \(unlocked ? "yes" : "no")")
        lines.append("Unlock:    \(unlock.terminalSafe)")
        lines.append("Session:   \(signedIn ? "signed in as \((userID ?? "unknown").terminalSafe)" : "none stored")")
        if let problem { lines.append("Problem:   \(problem.terminalSafe)") }
        guard accounts.count > 1 || accounts.first?.userID != userID else { return lines }
        lines.append("Accounts:")
        for row in accounts {
            let state = row.problem.map { "cannot be read: \($0)" } ?? (row.signedIn ? "stored" : "no session stored")
            lines.append("  \(row.active ? "*" : " ") \(row.account.terminalSafe): \(row.backend.terminalSafe), "
                + "\(state.terminalSafe) (\(row.location.terminalSafe))")
        }
        return lines
    }
}
