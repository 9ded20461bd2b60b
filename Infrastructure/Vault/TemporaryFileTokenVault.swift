import Foundation
import RiderDomain

/// TEMPORARY: keeps the session as plain JSON in a 0600 file under the XDG state folder.
///
/// A stop-gap until the Secret Service and encrypted-file vaults (issue #4) replace it as the
/// default. The file is private to its owner and written atomically, but it is not encrypted:
/// anyone who can read the owner's files can read the tokens.
public actor TemporaryFileTokenVault: TokenVault {
    public nonisolated let file: URL

    /// - Parameter file: where the session lives, e.g.
    ///   `$XDG_STATE_HOME/rider/<server>/session.json`.
    public init(file: URL) { self.file = file }

    /// The default location for `origin` under `directories`.
    public static func defaultFile(forOrigin origin: String, in directories: XDGDirectories) -> URL {
        directories.stateHome
            .appendingPathComponent("rider", isDirectory: true)
            .appendingPathComponent(XDGDirectories.folderName(forOrigin: origin), isDirectory: true)
            .appendingPathComponent("session.json")
    }

    public nonisolated var location: String { "temporary plain file \(file.path) (mode 0600, not encrypted)" }

    public func loadSession() async throws -> Session? {
        guard let data = try PrivateFile.read(file) else { return nil }
        let stored: StoredSession
        do {
            stored = try StoredSession.decode(data)
        } catch {
            throw RiderError.storage("the session file \(file.path) is damaged; move it aside (or run `rider logout`) and log in again")
        }
        guard stored.version <= StoredSession.currentVersion else {
            throw RiderError.storage("the session file \(file.path) was written by a newer RiderKit (format \(stored.version))")
        }
        return stored.toDomain()
    }

    public func saveSession(_ session: Session) async throws {
        let data: Data
        do {
            data = try StoredSession(session).encoded()
        } catch {
            throw RiderError.storage("cannot serialize the session")
        }
        try PrivateFile.write(data, to: file)
    }

    public func removeSession() async throws {
        try PrivateFile.remove(file)
    }
}
