import Foundation
import Logging
import RiderDomain
import RiderInfrastructure

/// ``VaultChoice/automatic``: the desktop keyring when it answers, unlocked, within its timeout;
/// otherwise the encrypted file. Decided once, on first use, and logged at info level with the
/// reason, so a fallback is never silent.
public actor AutomaticTokenVault: TokenVault {
    /// The keyring this vault prefers.
    public nonisolated let keyring: SecretServiceTokenVault
    /// The fallback.
    public nonisolated let file: EncryptedFileTokenVault
    private let logger: Logger?
    private var selection: VaultSelection?

    /// - Parameters:
    ///   - keyring: tried first.
    ///   - file: used when the keyring is unavailable, locked or too slow.
    ///   - logger: receives one info line saying which backend was chosen and why.
    public init(keyring: SecretServiceTokenVault, file: EncryptedFileTokenVault, logger: Logger? = nil) {
        self.keyring = keyring
        self.file = file
        self.logger = logger
    }

    public nonisolated var location: String {
        "automatic: \(keyring.location) when it answers within \(keyring.timeout), else \(file.location)"
    }

    /// Probes the keyring (once) and returns the backend in use and why.
    public func select() async -> VaultSelection {
        if let selection { return selection }
        let chosen: VaultSelection
        do {
            let collection = try await keyring.checkAvailable()
            var reason = "the Secret Service answered and its keyring \"\(collection)\" is unlocked"
            // A session saved to the file while no keyring was around is not used silently, nor lost.
            if FileManager.default.fileExists(atPath: file.file.path) {
                reason += "; an encrypted session file also exists at \(file.file.path): move it into the "
                    + "keyring with `rider vault migrate --to secret-service`"
            }
            chosen = VaultSelection(backend: .secretService, reason: reason, vault: keyring)
        } catch {
            chosen = VaultSelection(backend: .encryptedFile,
                                    reason: "falling back to the encrypted file: \(error.message)", vault: file)
        }
        selection = chosen
        logger?.info("vault: using \(chosen.backend.rawValue): \(chosen.reason)")
        return chosen
    }

    public func loadSession() async throws -> Session? {
        try await select().vault.loadSession()
    }

    public func saveSession(_ session: Session) async throws {
        try await select().vault.saveSession(session)
    }

    public func removeSession() async throws {
        try await select().vault.removeSession()
    }
}
