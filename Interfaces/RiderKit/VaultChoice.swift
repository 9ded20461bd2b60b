import Foundation

/// Where the session is kept between runs.
public enum VaultChoice: Hashable, Sendable {
    /// TEMPORARY default until issue #4 lands: a plain 0600 JSON file under the XDG state
    /// folder, or at the given path.
    case temporaryFile(URL?)
    /// For this process only: nothing survives exit ("don't keep me signed in").
    case memory

    /// Parses the `vault` setting: `file`, `file:/path/to/session.json` or `memory`.
    public init?(setting: String) {
        switch setting.lowercased() {
        case "file", "temporary-file": self = .temporaryFile(nil)
        case "memory": self = .memory
        default:
            guard setting.hasPrefix("file:") else { return nil }
            let path = String(setting.dropFirst("file:".count))
            guard path.hasPrefix("/") else { return nil }
            self = .temporaryFile(URL(fileURLWithPath: path))
        }
    }
}
