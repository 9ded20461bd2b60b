import ArgumentParser
import Foundation
import RiderKit

/// `rider vault passphrase`: re-encrypts the session file under a new passphrase.
struct VaultPassphraseCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "passphrase",
        abstract: "Change the encrypted session file's passphrase.",
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
        let file = context.vaults.encryptedFile()
        // Open with the current passphrase first, so a wrong one is reported before asking for a new one.
        guard try await file.load() != nil else {
            throw RiderError.storage("there is no session file at \(file.file.path) to re-encrypt; log in first")
        }
        let newPassphrase = try PasswordInput.readNewPassphrase(fromStandardInput: newPassphraseStdin)
        try await file.changePassphrase(to: newPassphrase)
        let output = VaultResetOutput(backend: VaultChoice.encryptedFile(nil).name, location: file.location)
        try context.print(json: output, lines: ["Re-encrypted \(file.file.path) under the new passphrase."])
    }
}
