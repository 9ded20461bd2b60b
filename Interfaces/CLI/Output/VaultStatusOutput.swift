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
        lines.append("Session:   \(signedIn ? "signed in as \((userID ?? "unknown").terminalSafe)" : "none stored")")
        if let problem { lines.append("Problem:   \(problem.terminalSafe)") }
        return lines
    }
}
