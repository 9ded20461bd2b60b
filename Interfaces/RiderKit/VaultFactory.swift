import Foundation
import Logging
import RiderApplication
import RiderDomain
import RiderInfrastructure

/// Builds the vaults for one server from the configuration: the one the ``VaultChoice`` asks
/// for, and each backend on its own for `rider vault status|migrate|reset|passphrase`.
package struct VaultFactory: Sendable {
    /// The API origin: the keyring's `service` attribute and the encrypted file's folder name.
    package let origin: String
    /// The server every stored session of these vaults belongs to (API and token endpoint origins).
    package let binding: SessionBinding
    /// What the configuration asks for.
    package let choice: VaultChoice
    /// Where the encrypted file goes by default (`$XDG_STATE_HOME/rider/…`).
    package let directories: XDGDirectories
    /// The encrypted file's passphrase source.
    package let passphrase: VaultPassphrase
    /// The bound on each keyring call.
    package let keyringTimeout: Duration
    /// How long the encrypted files stay unlocked after the passphrase is typed.
    package let unlockRetention: VaultUnlockRetention
    /// Receives the automatic choice's info line.
    package let logger: Logger?
    /// Told when the keyring refused a save that went to the encrypted file instead.
    package let warnings: Logger?

    /// Also moves the server's state and cache folders from the names older RiderKits gave them
    /// (without the origin's hash), once, so their session and cache stay this server's.
    /// - Parameter configuration: supplies the server origin, the choice, the folders, the
    ///   passphrase source, the keyring timeout and the logger.
    package init(configuration: RiderKit.Configuration) {
        origin = configuration.api.origin
        binding = SessionBinding(apiOrigin: configuration.api.origin,
                                 tokenEndpointOrigin: configuration.api.tokenEndpointOrigin)
        choice = configuration.vault
        directories = configuration.directories
        // Asked once however many accounts' files this process opens.
        passphrase = configuration.vaultPassphrase.remembered()
        keyringTimeout = configuration.keyringTimeout
        unlockRetention = configuration.vaultUnlockRetention
        logger = configuration.logger
        warnings = configuration.warnings
        directories.moveLegacyFolders(forOrigin: origin)
    }

    /// The keyring vault for this server.
    package func secretService() -> SecretServiceTokenVault {
        SecretServiceTokenVault(binding: binding, timeout: keyringTimeout)
    }

    /// The encrypted-file vault for this server (the configured path, or the default one).
    ///
    /// Either way the file is bound to this server. A file from before sessions were bound is
    /// taken as this server's only at the default location, whose folder names the server; at a
    /// configured path it waits for `rider vault adopt`.
    package func encryptedFile() -> EncryptedFileTokenVault {
        if case .encryptedFile(let configured?) = choice {
            return EncryptedFileTokenVault(file: configured, passphrase: passphrase, binding: binding,
                                           unlockRetention: unlockRetention)
        }
        return EncryptedFileTokenVault(file: EncryptedFileTokenVault.defaultFile(forOrigin: origin, in: directories),
                                       passphrase: passphrase, binding: binding, acceptsUnboundFile: true,
                                       unlockRetention: unlockRetention)
    }

    /// The vault the configuration asks for.
    package func make() -> any TokenVault {
        make(choice)
    }

    /// The vault of one account, of the backend the configuration asks for: the keyring item with
    /// that `account` attribute, or the encrypted file of that account beside the server's
    /// (`AccountFile`).
    package func make(account: UserID) -> any TokenVault {
        make(choice, account: account)
    }

    /// The vault of one account in one backend.
    package func make(_ backend: VaultChoice, account: UserID) -> any TokenVault {
        switch backend {
        case .automatic:
            AutomaticTokenVault(keyring: secretService(account: account), file: encryptedFile(account: account),
                                logger: logger, warnings: warnings)
        case .secretService: secretService(account: account)
        case .encryptedFile(nil): encryptedFile(account: account)
        case .encryptedFile(let file?):
            EncryptedFileTokenVault(file: AccountFile.file(file, for: account), passphrase: passphrase, binding: binding,
                                    unlockRetention: unlockRetention)
        case .memory: InMemoryTokenVault()
        }
    }

    /// The keyring vault of one account of this server.
    package func secretService(account: UserID) -> SecretServiceTokenVault {
        SecretServiceTokenVault(binding: binding, account: account.rawValue, timeout: keyringTimeout)
    }

    /// The encrypted file of one account of this server: beside the server's file, named for the
    /// account.
    package func encryptedFile(account: UserID) -> EncryptedFileTokenVault {
        EncryptedFileTokenVault(file: AccountFile.file(encryptedFile().file, for: account), passphrase: passphrase,
                                binding: binding, unlockRetention: unlockRetention)
    }

    /// Where the server's accounts are listed: a file beside its sessions, or memory with the
    /// in-memory vault.
    /// - Parameter tokenEndpointOrigin: where the server's tokens come from, recorded in the list.
    package func accountRegistry(tokenEndpointOrigin: @escaping @Sendable () async -> String? = { nil })
        -> any AccountRegistry
    {
        if case .memory = choice { return InMemoryAccountRegistry(server: origin) }
        return FileAccountRegistry(file: FileAccountRegistry.defaultFile(forOrigin: origin, in: directories),
                                   server: origin, tokenEndpointOrigin: tokenEndpointOrigin)
    }

    /// The one session per server a RiderKit from before accounts kept: read through the
    /// configured backend as it was then (the keyring item of the server, the server's file), and
    /// retired by removing the file once the account's own vault holds the session. The keyring
    /// item needs no move: the account's item is that item.
    package func legacySession() -> AccountTokenVault.LegacySession {
        let old = make()
        let file: EncryptedFileTokenVault? = switch choice {
        case .automatic, .encryptedFile: encryptedFile()
        case .secretService, .memory: nil
        }
        return AccountTokenVault.LegacySession(load: { try await old.loadSession() }, retire: { _ in
            guard let file else { return }
            let marker = URL(fileURLWithPath: file.file.path + ".newer-than-keyring")
            // The session came from the keyring: a file left beside it is not touched (it may need
            // a passphrase nobody should be asked for now).
            if let automatic = old as? AutomaticTokenVault, case .secretService = await automatic.select().backend,
               !FileManager.default.fileExists(atPath: marker.path) { return }
            try await file.removeSession()
            try? FileManager.default.removeItem(at: marker)
        })
    }

    /// How refreshes of this server's session are serialized: across processes through a lock
    /// file beside the encrypted vault (every `rider` process shares the stored session), within
    /// the process for the in-memory vault.
    package func refreshLock() -> any RefreshLock {
        if case .memory = choice { return InProcessRefreshLock() }
        return FileRefreshLock(file: FileRefreshLock.defaultFile(forOrigin: origin, in: directories))
    }

    /// The refresh lock of one account: two accounts refresh in parallel, two processes on one
    /// account take turns.
    package func refreshLock(account: UserID) -> any RefreshLock {
        if case .memory = choice { return InProcessRefreshLock() }
        return FileRefreshLock(file: AccountFile.file(FileRefreshLock.defaultFile(forOrigin: origin, in: directories),
                                                     for: account))
    }

    /// The vault of one backend: ``VaultChoice/encryptedFile(_:)`` without a path is the
    /// configured file (or the default one), as ``encryptedFile()`` is.
    package func make(_ backend: VaultChoice) -> any TokenVault {
        switch backend {
        case .automatic:
            AutomaticTokenVault(keyring: secretService(), file: encryptedFile(), logger: logger, warnings: warnings)
        case .secretService: secretService()
        case .encryptedFile(nil): encryptedFile()
        case .encryptedFile(let file?):
            EncryptedFileTokenVault(file: file, passphrase: passphrase, binding: binding, unlockRetention: unlockRetention)
        case .memory: InMemoryTokenVault()
        }
    }

    /// Which backend holds `account`'s session and why; for ``VaultChoice/automatic`` this probes
    /// the keyring (and sees a save that went to the account's file).
    package func select(account: UserID) async -> VaultSelection {
        let setting = "the vault setting is \(choice.setting)"
        switch choice {
        case .automatic:
            return await AutomaticTokenVault(keyring: secretService(account: account), file: encryptedFile(account: account),
                                             logger: logger).select()
        case .secretService:
            return VaultSelection(backend: .secretService, reason: setting, vault: secretService(account: account))
        case .encryptedFile:
            return VaultSelection(backend: choice, reason: setting, vault: make(choice, account: account))
        case .memory:
            return VaultSelection(backend: .memory, reason: setting, vault: InMemoryTokenVault())
        }
    }

    /// Which backend the configuration leads to and why; for ``VaultChoice/automatic`` this
    /// probes the keyring.
    package func select() async -> VaultSelection {
        let setting = "the vault setting is \(choice.setting)"
        switch choice {
        case .automatic:
            return await AutomaticTokenVault(keyring: secretService(), file: encryptedFile(), logger: logger).select()
        case .secretService:
            return VaultSelection(backend: .secretService, reason: setting, vault: secretService())
        case .encryptedFile:
            return VaultSelection(backend: choice, reason: setting, vault: encryptedFile())
        case .memory:
            return VaultSelection(backend: .memory, reason: setting, vault: InMemoryTokenVault())
        }
    }
}
