import Foundation

/// The XDG Base Directory locations RiderKit uses, read from an environment so tests can
/// point them at a temporary folder.
public struct XDGDirectories: Hashable, Sendable {
    /// `$XDG_STATE_HOME` or `~/.local/state`: sessions.
    public var stateHome: URL
    /// `$XDG_CACHE_HOME` or `~/.cache`: cached users.
    public var cacheHome: URL
    /// `$XDG_CONFIG_HOME` or `~/.config`: the config file.
    public var configHome: URL

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let home = URL(fileURLWithPath: environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? NSHomeDirectory(), isDirectory: true)
        func directory(_ variable: String, default relative: String) -> URL {
            // The spec says relative paths are invalid and must be ignored.
            if let value = environment[variable], value.hasPrefix("/") {
                return URL(fileURLWithPath: value, isDirectory: true)
            }
            return home.appendingPathComponent(relative, isDirectory: true)
        }
        stateHome = directory("XDG_STATE_HOME", default: ".local/state")
        cacheHome = directory("XDG_CACHE_HOME", default: ".cache")
        configHome = directory("XDG_CONFIG_HOME", default: ".config")
    }

    /// `$XDG_STATE_HOME/rider/<server>/`: the session and its refresh lock for one server.
    public func stateFolder(forOrigin origin: String) -> URL {
        Self.serverFolder(in: stateHome, forOrigin: origin)
    }

    /// `$XDG_CACHE_HOME/rider/<server>/`: the cached users of one server.
    public func cacheFolder(forOrigin origin: String) -> URL {
        Self.serverFolder(in: cacheHome, forOrigin: origin)
    }

    private static func serverFolder(in base: URL, forOrigin origin: String) -> URL {
        base.appendingPathComponent("rider", isDirectory: true)
            .appendingPathComponent(folderName(forOrigin: origin), isDirectory: true)
    }

    /// A folder name for a server origin that is readable and safe on any file system
    /// (`https://api.example.com:8443` → `https-api.example.com-8443`).
    public static func folderName(forOrigin origin: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.")
        var name = ""
        var lastWasSeparator = false
        for character in origin {
            if allowed.contains(character) {
                name.append(character)
                lastWasSeparator = false
            } else if !lastWasSeparator {
                name.append("-")
                lastWasSeparator = true
            }
        }
        let trimmed = name.trimmingCharacters(in: CharacterSet(charactersIn: "-."))
        return trimmed.isEmpty ? "default" : trimmed
    }
}
