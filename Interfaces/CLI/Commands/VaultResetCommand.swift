import ArgumentParser
import RiderKit

/// `rider vault reset`: removes the stored session, even from a file that no longer opens.
struct VaultResetCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Remove the stored session from the vault, even when it cannot be read.",
        discussion: """
            The way out of a forgotten passphrase or a damaged session file: the file is removed \
            without being decrypted (RiderKit never removes it on its own). The server is not \
            told; use `rider logout` to revoke a session that still works. Log in again afterwards.

            Examples:
              rider vault reset
              rider vault reset --backend encrypted-file
            """
    )

    @Option(name: .long, help: ArgumentHelp("The backend to reset (default: the one in use).",
                                            valueName: "secret-service|encrypted-file"))
    var backend: VaultMigrateCommand.Destination?

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        let context = try CommandContext(global)
        var target = VaultChoice.encryptedFile(nil)
        if let backend {
            target = backend == .secretService ? .secretService : .encryptedFile(nil)
        } else {
            target = await context.vaults.select().backend
        }
        let location: String
        switch target {
        case .secretService:
            let keyring = context.vaults.secretService()
            try await keyring.remove()
            location = keyring.location
        case .encryptedFile:
            let file = context.vaults.encryptedFile()
            try await file.reset()
            location = file.location
        case .memory, .automatic:
            // A selection is never automatic; memory keeps nothing to remove.
            location = "memory"
        }
        let output = VaultResetOutput(backend: target.name, location: location)
        try context.print(json: output, lines: ["Removed any stored session from \(location). Log in again with `rider login`."])
    }
}

/// What `rider vault reset` reports.
struct VaultResetOutput: Encodable, Sendable {
    let backend: String
    let location: String
}
