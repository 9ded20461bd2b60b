import ArgumentParser

/// `rider vault`: where the session is kept, and moving or resetting it.
struct VaultCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vault",
        abstract: "Show or manage where the session is kept (keyring or encrypted file).",
        discussion: """
            By default (vault "automatic") the session goes to the desktop keyring through the \
            Secret Service when it answers, unlocked, within RIDER_KEYRING_TIMEOUT (2 s); \
            otherwise to a file encrypted with a passphrase from RIDER_VAULT_PASSPHRASE, the file \
            named by RIDER_VAULT_PASSPHRASE_FILE, or a prompt. Set RIDER_VAULT to \
            secret-service, encrypted-file or memory to force one. Once typed, the passphrase's \
            key is kept in the kernel keyring for RIDER_VAULT_UNLOCK_TIMEOUT (900 s; 0 for \
            never), so the next commands do not ask again; `rider vault lock` forgets it at once.

            Examples:
              rider vault status
              rider vault migrate --to encrypted-file
              rider vault passphrase
              rider vault reset
              rider vault adopt
              rider vault lock
            """,
        subcommands: [VaultStatusCommand.self, VaultMigrateCommand.self, VaultPassphraseCommand.self,
                      VaultResetCommand.self, VaultAdoptCommand.self, VaultLockCommand.self],
        defaultSubcommand: VaultStatusCommand.self
    )
}
