import ArgumentParser
import Foundation
import RiderKit

/// `rider vault passphrase`: re-encrypts the session file under a new passphrase.
struct VaultPassphraseCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "passphrase",
        abstract: "Change the passphrase of the encrypted session files (every account's).",
        discussion: """
            The current passphrase comes from RIDER_VAULT_PASSPHRASE, RIDER_VAULT_PASSPHRASE_FILE \
            or a prompt; the new one is asked twice on the terminal, or read from the first line \
            of standard input with --new-passphrase-stdin. The file is re-encrypted with a fresh \
            salt and replaced atomically. Remember to update RIDER_VAULT_PASSPHRASE afterwards.

            Example:
              rider vault passphrase
            """
    )

    @Flag(name: .long, help: "Read the new passphrase from the first line of standard input.")
    var newPassphraseStdin = false

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        let context = try CommandContext(global)
        // Every account's file, and one from before accounts: all share the one passphrase.
        var files = try await context.vaultAccounts().map { context.vaults.encryptedFile(account: $0.id) }
        if context.configuration.account == nil { files.append(context.vaults.encryptedFile()) }
        // Open each with the current passphrase first, so a wrong one is reported before asking
        // for a new one, and no file is left under the old passphrase while others have the new.
        var present: [EncryptedFileTokenVault] = []
        for file in files where try await file.load() != nil { present.append(file) }
        guard let first = present.first else {
            throw RiderError.storage("there is no session file at \(files.first?.file.path ?? "-") to re-encrypt; "
                + "log in first")
        }
        let newPassphrase = try PasswordInput.readNewPassphrase(fromStandardInput: newPassphraseStdin)
        for file in present { try await file.changePassphrase(to: newPassphrase) }
        let output = VaultResetOutput(backend: VaultChoice.encryptedFile(nil).name, location: first.location)
        try context.print(json: output, lines: present.map { "Re-encrypted \($0.file.path) under the new passphrase." })
    }
}
