import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The XDG Base Directory locations RiderKit uses, read from an environment so tests can
/// point them at a temporary folder.
package struct XDGDirectories: Hashable, Sendable {
    /// `$XDG_STATE_HOME` or `~/.local/state`: sessions.
    package var stateHome: URL
    /// `$XDG_CACHE_HOME` or `~/.cache`: cached users.
    package var cacheHome: URL
    /// `$XDG_CONFIG_HOME` or `~/.config`: the config file.
    package var configHome: URL

    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
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
    package func stateFolder(forOrigin origin: String) -> URL {
        Self.serverFolder(in: stateHome, forOrigin: origin)
    }

    /// `$XDG_CACHE_HOME/rider/<server>/`: the cached users of one server.
    package func cacheFolder(forOrigin origin: String) -> URL {
        Self.serverFolder(in: cacheHome, forOrigin: origin)
    }

    private static func serverFolder(in base: URL, forOrigin origin: String) -> URL {
        base.appendingPathComponent("rider", isDirectory: true)
            .appendingPathComponent(folderName(forOrigin: origin), isDirectory: true)
    }

    /// A folder name for a server origin that is readable, safe on any file system, and never
    /// shared by two origins (`https://api.example.com:8443` → `https-api.example.com-8443-1f0c3a9d`):
    /// the readable part alone maps `https://a.b:8443` and `https://a.b-8443` to one name, so the
    /// first 8 hex digits of the origin's SHA-256 follow it.
    package static func folderName(forOrigin origin: String) -> String {
        let digest = SHA256.hash(data: Data(origin.utf8)).prefix(4).map { String(format: "%02x", $0) }.joined()
        return "\(legacyFolderName(forOrigin: origin))-\(digest)"
    }

    /// Moves a server's folders from the names RiderKit used before they carried a hash, once:
    /// when the old folder exists and the new one does not. Its session file is then at the
    /// server's default location, which is what tells an unbound session file whose it is.
    /// Best effort: a failed move leaves the old folder where it is, and the server starts afresh.
    package func moveLegacyFolders(forOrigin origin: String) {
        for base in [stateHome, cacheHome] {
            let root = base.appendingPathComponent("rider", isDirectory: true)
            let legacy = root.appendingPathComponent(Self.legacyFolderName(forOrigin: origin), isDirectory: true)
            let current = Self.serverFolder(in: base, forOrigin: origin)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: legacy.path, isDirectory: &isDirectory), isDirectory.boolValue,
                  !FileManager.default.fileExists(atPath: current.path)
            else { continue }
            // rename(2) is atomic: of two processes doing this at once, one moves it, the other finds it moved.
            _ = rename(legacy.path, current.path)
        }
    }

    /// The name without the hash, as RiderKit wrote it before.
    static func legacyFolderName(forOrigin origin: String) -> String {
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
