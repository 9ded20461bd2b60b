import Foundation

/// Where the session is kept between runs.
public enum VaultChoice: Hashable, Sendable {
    /// The desktop keyring when it answers within the timeout, otherwise the encrypted file.
    case automatic
    /// The desktop keyring (Secret Service) only; fails when it is unavailable or locked.
    case secretService
    /// The passphrase-encrypted file, at its default location or the given path.
    case encryptedFile(URL?)
    /// For this process only: nothing survives exit ("don't keep me signed in").
    case memory

    /// Parses the `vault` setting: `automatic`, `secret-service`, `encrypted-file` (or `file`),
    /// `file:/absolute/path`, or `memory`.
    package init?(setting: String) {
        switch setting.lowercased() {
        case "automatic", "auto": self = .automatic
        case "secret-service": self = .secretService
        case "encrypted-file", "file": self = .encryptedFile(nil)
        case "memory": self = .memory
        default:
            guard setting.hasPrefix("file:") else { return nil }
            let path = String(setting.dropFirst("file:".count))
            guard path.hasPrefix("/") else { return nil }
            self = .encryptedFile(URL(fileURLWithPath: path))
        }
    }

    /// The backend's name without its path: `automatic`, `secret-service`, `encrypted-file` or
    /// `memory`, as `rider vault status` and `rider vault migrate` name a backend.
    package var name: String {
        switch self {
        case .automatic: "automatic"
        case .secretService: "secret-service"
        case .encryptedFile: "encrypted-file"
        case .memory: "memory"
        }
    }

    /// The setting's spelling, as `rider vault status` shows it.
    package var setting: String {
        switch self {
        case .automatic: "automatic"
        case .secretService: "secret-service"
        case .encryptedFile(nil): "encrypted-file"
        case .encryptedFile(let file?): "file:\(file.path)"
        case .memory: "memory"
        }
    }
}
