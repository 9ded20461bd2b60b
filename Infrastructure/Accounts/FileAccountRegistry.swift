import Foundation
import RiderDomain

/// The accounts of one server in `$XDG_STATE_HOME/rider/<server>/accounts.json`: ids, emails,
/// names, when each signed in, and the active one — no secret, but personal, so it is kept like
/// the vault file (0600 in a 0700 folder, written atomically, read and changed under a lock), and a
/// file that cannot be read is reported, never replaced.
///
/// Every call reads the file afresh, so a `rider session switch` in one terminal is what the next
/// command in another uses.
package actor FileAccountRegistry: AccountRegistry {
    package nonisolated let server: String
    /// The registry file.
    package nonisolated let file: URL
    private let tokenEndpointOrigin: @Sendable () async -> String?

    /// - Parameters:
    ///   - file: where the registry lives, e.g. ``defaultFile(forOrigin:in:)``.
    ///   - server: the API origin.
    ///   - tokenEndpointOrigin: where the server's tokens come from, recorded with every change so
    ///     `rider session list` can open this server's vaults without asking its provider.
    package init(file: URL, server: String, tokenEndpointOrigin: @escaping @Sendable () async -> String? = { nil }) {
        self.file = file
        self.server = server
        self.tokenEndpointOrigin = tokenEndpointOrigin
    }

    /// `$XDG_STATE_HOME/rider/<server>/accounts.json`.
    package static func defaultFile(forOrigin origin: String, in directories: XDGDirectories) -> URL {
        directories.stateFolder(forOrigin: origin).appendingPathComponent("accounts.json")
    }

    /// Every server with an account registry under `directories`, by API origin, with where its
    /// tokens come from: what `rider session list` goes through.
    package static func stored(in directories: XDGDirectories) -> [(registry: FileAccountRegistry, binding: SessionBinding)] {
        let root = directories.stateHome.appendingPathComponent("rider", isDirectory: true)
        let folders = (try? FileManager.default.contentsOfDirectory(at: root, includingPropertiesForKeys: nil)) ?? []
        return folders.sorted { $0.lastPathComponent < $1.lastPathComponent }.compactMap { folder in
            let file = folder.appendingPathComponent("accounts.json")
            guard let data = try? PrivateFile.read(file), let list = try? AccountList.decode(data) else { return nil }
            return (FileAccountRegistry(file: file, server: list.server),
                    SessionBinding(apiOrigin: list.server, tokenEndpointOrigin: list.tokenEndpointOrigin))
        }
    }

    private nonisolated var lockFile: URL {
        file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).lock")
    }

    package func accounts() async throws -> [Account] {
        do { return try await read().accounts } catch { throw error.riderError }
    }

    package func record(_ account: Account, activate: Bool) async throws {
        let origin = await tokenEndpointOrigin()
        try await change { list in
            list.record(account, activate: activate)
            if let origin { list.tokenEndpointOrigin = origin }
        }
    }

    package func activate(_ account: UserID) async throws {
        let refusal = try await change { list -> RiderError? in
            do { try list.activate(account) } catch { return error as? RiderError }
            return nil
        }
        if let refusal { throw refusal }
    }

    @discardableResult
    package func remove(_ account: UserID) async throws -> Account? {
        try await change { $0.remove(account) }
    }

    package func changes() async -> AsyncStream<AccountsChange> {
        AccountChangeObservers.shared.stream(for: file.path, current: (try? await read().accounts) ?? [])
    }

    /// The list as stored; an empty one when there is no file yet.
    package func read() async throws(VaultError) -> AccountList {
        let (file, lockFile, server) = (file, lockFile, server)
        return try await BlockingWork.run { () throws(VaultError) in
            try FileLock.withLock(lockFile, exclusive: false) { () throws(VaultError) in
                try Self.parse(PrivateFile.read(file), file: file, server: server)
            }
        }
    }

    /// Reads, changes and writes the list under the exclusive lock, then tells the observers.
    @discardableResult
    private func change<Result: Sendable>(_ body: @escaping @Sendable (inout AccountList) -> Result) async throws -> Result {
        let (file, lockFile, server) = (file, lockFile, server)
        do {
            let (accounts, result) = try await BlockingWork.run { () throws(VaultError) -> ([Account], Result) in
                try FileLock.withLock(lockFile, exclusive: true) { () throws(VaultError) -> ([Account], Result) in
                    var list = try Self.parse(PrivateFile.read(file), file: file, server: server)
                    let result = body(&list)
                    let data: Data
                    do { data = try list.encoded() } catch {
                        throw .io(file: file.path, reason: "the account list cannot be serialized")
                    }
                    try PrivateFile.write(data, to: file)
                    return (list.accounts, result)
                }
            }
            AccountChangeObservers.shared.publish(accounts, for: file.path)
            return result
        } catch {
            throw error.riderError
        }
    }

    private static func parse(_ data: Data?, file: URL, server: String) throws(VaultError) -> AccountList {
        guard let data else { return AccountList(server: server) }
        let list: AccountList
        do { list = try AccountList.decode(data) } catch {
            throw .corrupted(file: file.path, detail: "it is not an account list")
        }
        guard list.version <= AccountList.currentVersion else {
            throw .unsupportedVersion(file: file.path, version: list.version)
        }
        return list
    }
}
