import Foundation

/// What `rider vault status` reports: never a token, never the passphrase.
struct VaultStatusOutput: Encodable, Sendable {
    let server: String
    let setting: String
    let backend: String
    let reason: String
    let location: String
    /// The keyring item's label, when the session is in the keyring.
    let itemLabel: String?
    /// Whether the backend can be read now: the keyring is unlocked, or the passphrase opens the file.
    let unlocked: Bool
    let signedIn: Bool
    let userID: String?
    /// Why the backend cannot be read, when it cannot.
    let problem: String?

    enum CodingKeys: String, CodingKey {
        case server, setting, backend, reason, location, unlocked, problem
        case itemLabel = "item_label"
        case signedIn = "signed_in"
        case userID = "user_id"
    }

    // Written out so absent values appear as `null`: scripts see the same keys every time.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(server, forKey: .server)
        try container.encode(setting, forKey: .setting)
        try container.encode(backend, forKey: .backend)
        try container.encode(reason, forKey: .reason)
        try container.encode(location, forKey: .location)
        try container.encode(itemLabel, forKey: .itemLabel)
        try container.encode(unlocked, forKey: .unlocked)
        try container.encode(signedIn, forKey: .signedIn)
        try container.encode(userID, forKey: .userID)
        try container.encode(problem, forKey: .problem)
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
        lines.append("Session:   \(signedIn ? "signed in as \((userID ?? "unknown").terminalSafe)" : "none stored")")
        if let problem { lines.append("Problem:   \(problem.terminalSafe)") }
        return lines
    }
}
