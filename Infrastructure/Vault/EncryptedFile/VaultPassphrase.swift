import Foundation

/// Where the encrypted file's passphrase comes from. Asked for lazily, only when the file is
/// actually used, and at most once per vault.
///
/// Never from a command-line argument: other users can read a process's argv.
public struct VaultPassphrase: Sendable {
    private let obtain: @Sendable () async throws(VaultError) -> String

    /// A passphrase obtained by `obtain`, for example an interactive prompt.
    public init(_ obtain: @escaping @Sendable () async throws(VaultError) -> String) {
        self.obtain = obtain
    }

    /// The passphrase itself (tests, programs that hold it already).
    public static func fixed(_ passphrase: String) -> VaultPassphrase {
        VaultPassphrase { passphrase }
    }

    /// No passphrase available: using the encrypted file fails with ``VaultError/passphraseRequired``.
    public static let unavailable = VaultPassphrase { () throws(VaultError) in throw .passphraseRequired }

    /// `RIDER_VAULT_PASSPHRASE`, else the first line of the 0600 file named by
    /// `RIDER_VAULT_PASSPHRASE_FILE`; `nil` when neither is set.
    package static func environment(_ environment: [String: String]) -> VaultPassphrase? {
        if let value = environment["RIDER_VAULT_PASSPHRASE"], !value.isEmpty { return .fixed(value) }
        guard let path = environment["RIDER_VAULT_PASSPHRASE_FILE"], !path.isEmpty else { return nil }
        return VaultPassphrase { () throws(VaultError) in try readFile(URL(fileURLWithPath: path)) }
    }

    /// Tries `self`, and `fallback` when `self` has no passphrase.
    public func orElse(_ fallback: VaultPassphrase) -> VaultPassphrase {
        VaultPassphrase { () async throws(VaultError) in
            do throws(VaultError) {
                return try await self.get()
            } catch {
                guard case .passphraseRequired = error else { throw error }
                return try await fallback.get()
            }
        }
    }

    /// The same source, asked once: every vault given the result shares the first passphrase it
    /// obtained (a person with several accounts types it once per process, not once per file).
    package func remembered() -> VaultPassphrase {
        let memory = Remembered(self)
        return VaultPassphrase { () async throws(VaultError) in try await memory.get() }
    }

    private actor Remembered {
        let source: VaultPassphrase
        var obtained: String?
        init(_ source: VaultPassphrase) { self.source = source }
        func get() async throws(VaultError) -> String {
            if let obtained { return obtained }
            let passphrase = try await source.get()
            obtained = passphrase
            return passphrase
        }
    }

    /// The passphrase.
    /// - Throws: ``VaultError/passphraseRequired`` when there is none.
    package func get() async throws(VaultError) -> String {
        let passphrase = try await obtain()
        guard !passphrase.isEmpty else { throw .passphraseRequired }
        return passphrase
    }

    private static func readFile(_ file: URL) throws(VaultError) -> String {
        // Only the file itself must be private: it may sit in any folder the user chooses.
        guard let data = try PrivateFile.read(file, checkingFolder: false) else {
            throw .io(file: file.path, reason: "the passphrase file named by RIDER_VAULT_PASSPHRASE_FILE does not exist")
        }
        let text = String(decoding: data, as: UTF8.self)
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(line.hasSuffix("\r") ? line.dropLast() : line)
    }
}
