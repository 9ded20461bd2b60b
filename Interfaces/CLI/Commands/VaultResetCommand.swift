import ArgumentParser
import RiderKit

/// `rider vault reset`: removes the stored session, even from a file that no longer opens.
struct VaultResetCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Remove the stored session from the vault, even when it cannot be read.",
        discussion: """
            The way out of a forgotten passphrase or a damaged session file: the file is removed \
            without being decrypted (RiderKit never removes it on its own). Every account's \
            session goes (and a session stored before accounts), or only the one given with \
            --account. The server is not told; use `rider logout` to revoke a session that still \
            works. Log in again afterwards.

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
            let account = try await context.vaultAccounts().first
            target = if let account { await context.vaults.select(account: account.id).backend } else {
                await context.vaults.select().backend
            }
        }
        // Every account's entry, each removed without being read, and each taken off the list.
        let accounts = try await context.vaultAccounts()
        let everyone = context.configuration.account == nil
        let location: String
        switch target {
        case .secretService:
            for account in accounts { try await context.vaults.secretService(account: account.id).remove() }
            // Without --account, also any item the list does not name (one stored before accounts).
            if everyone { try await context.vaults.secretService().remove() }
            location = context.vaults.secretService().location
        case .encryptedFile:
            for account in accounts { try await context.vaults.encryptedFile(account: account.id).reset() }
            if everyone { try await context.vaults.encryptedFile().reset() }
            location = context.vaults.encryptedFile().location
        case .memory, .automatic:
            // A selection is never automatic; memory keeps nothing to remove.
            location = "memory"
        }
        for account in accounts { try await context.rider.accounts.unlist(account.id) }
        let output = VaultResetOutput(backend: target.name, location: location)
        try context.print(json: output, lines: ["Removed any stored session from \(location). Log in again with `rider login`."])
    }
}

/// What `rider vault reset` reports.
struct VaultResetOutput: Encodable, Sendable {
    let backend: String
    let location: String
}
