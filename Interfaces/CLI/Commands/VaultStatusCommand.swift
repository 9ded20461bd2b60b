import ArgumentParser
import RiderKit

/// `rider vault status`: which backend holds each account's session, where, and whether it can be read.
struct VaultStatusCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show which vault is in use and why, where it is, and whether it is unlocked, for every account.",
        discussion: """
            The first part is about the account commands use (the active one, or --account); \
            then one line per account stored for the server. With the encrypted file this asks \
            for the passphrase (unless RIDER_VAULT_PASSPHRASE or RIDER_VAULT_PASSPHRASE_FILE is \
            set) to tell whether it opens. Never shows a token.

            Example:
              rider vault status --json
            """
    )

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        let context = try CommandContext(global)
        let vaults = try await context.resolvedVaults()
        var rows: [VaultStatusOutput.AccountRow] = []
        for account in try await context.vaultAccounts() {
            let selection = await vaults.select(account: account.id)
            rows.append(await Self.status(of: account, in: selection))
        }
        let current = try await context.rider.accounts.current()
        let selection = if let current { await vaults.select(account: current.id) } else { await vaults.select() }
        let row = rows.first { $0.userID == current?.id.rawValue }
        let output = VaultStatusOutput(
            server: context.server, setting: vaults.choice.setting, backend: selection.backend.name,
            reason: selection.reason, location: selection.vault.location, itemLabel: row?.itemLabel,
            unlocked: row?.unlocked ?? true, signedIn: row?.signedIn ?? false, userID: row?.userID,
            problem: row?.problem, unlock: Self.unlockLine(vaults.unlockRetention), accounts: rows)
        try context.print(json: output, lines: output.lines())
    }

    /// How long an unlock of the encrypted file lasts here, and why only the process when the
    /// kernel keyring is refused.
    static func unlockLine(_ retention: VaultUnlockRetention) -> String {
        guard retention.timeout != nil else {
            return "the encrypted file asks for its passphrase in each process (RIDER_VAULT_UNLOCK_TIMEOUT is 0)"
        }
        switch VaultUnlockRetention.availability {
        case .available:
            return "the encrypted file stays unlocked \(retention) after its passphrase is typed (`rider vault lock` forgets it)"
        case .unavailable(let reason):
            return "the encrypted file asks for its passphrase in each process: \(reason)"
        }
    }

    /// What one account's vault entry says, read without using it.
    static func status(of account: Account, in selection: VaultSelection) async -> VaultStatusOutput.AccountRow {
        var itemLabel: String?
        var session: Session?
        var problem: String?
        switch selection.vault {
        case let keyring as SecretServiceTokenVault:
            do {
                if let stored = try await keyring.load() {
                    session = stored.session
                    itemLabel = keyring.label(forAccount: stored.session.identity?.email ?? stored.account)
                }
            } catch {
                problem = ErrorAdvice.message(for: error.riderError)
            }
        case let file as EncryptedFileTokenVault:
            do { session = try await file.load() } catch { problem = ErrorAdvice.message(for: error.riderError) }
        default:
            do { session = try await selection.vault.loadSession() } catch {
                problem = (error as? RiderError).map(ErrorAdvice.message(for:)) ?? "\(type(of: error))"
            }
        }
        return VaultStatusOutput.AccountRow(account: account.displayName, userID: account.id.rawValue,
                                            active: account.isActive, backend: selection.backend.name,
                                            location: selection.vault.location, itemLabel: itemLabel,
                                            unlocked: problem == nil, signedIn: session != nil, problem: problem)
    }
}
