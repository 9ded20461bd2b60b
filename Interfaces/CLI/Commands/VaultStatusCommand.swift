import ArgumentParser
import RiderKit

/// `rider vault status`: which backend holds the session, where, and whether it can be read.
struct VaultStatusCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show which vault is in use and why, where it is, and whether it is unlocked.",
        discussion: """
            With the encrypted file this asks for the passphrase (unless RIDER_VAULT_PASSPHRASE \
            or RIDER_VAULT_PASSPHRASE_FILE is set) to tell whether it opens. Never shows a token.

            Example:
              rider vault status --json
            """
    )

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        let context = try CommandContext(global)
        let vaults = try await context.resolvedVaults()
        let selection = await vaults.select()
        var itemLabel: String?
        var session: Session?
        var problem: String?
        switch selection.vault {
        case let keyring as SecretServiceTokenVault:
            do {
                if let stored = try await keyring.load() {
                    session = stored.session
                    itemLabel = keyring.label(forAccount: stored.account)
                }
            } catch {
                problem = error.message
            }
        case let file as EncryptedFileTokenVault:
            do { session = try await file.load() } catch { problem = error.message }
        default:
            session = try await selection.vault.loadSession()
        }
        let output = VaultStatusOutput(
            server: context.server, setting: vaults.choice.setting, backend: selection.backend.name,
            reason: selection.reason, location: selection.vault.location, itemLabel: itemLabel,
            unlocked: problem == nil, signedIn: session != nil, userID: session?.userID.rawValue, problem: problem)
        try context.print(json: output, lines: output.lines())
    }
}
