import ArgumentParser
import Foundation
import RiderApplication
import RiderInfrastructure
import RiderKit

/// `rider session list`: every stored session, as `gh auth status` lists hosts and accounts.
struct SessionListCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List every stored session: server, account, which is active, expiry, vault, and whether it refreshes.",
        discussion: """
            Reads the vaults only; no server is contacted, no token is shown. A `*` marks each \
            server's active account, the one commands use unless given --account. A session that \
            cannot be read (a passphrase that does not open its file) is reported on its row; the \
            others are listed all the same. No server need be configured: the sessions of every \
            server are listed either way.

            Examples:
              rider session list
              rider session list --json | jq -r '.sessions[] | select(.active) | .account'
            """,
        aliases: ["ls"]
    )

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        // Every stored session is listed, so no server need be configured: without one, each
        // server with stored sessions is read as its account list records it.
        let (contexts, configured) = try CommandContext.forStoredSessions(global)
        if CommandContext.givenToken() != nil {
            Console.standardError("rider: \(CommandContext.tokenVariable) is set: other commands use that token, not the "
                + "stored sessions listed here.")
        }
        guard let context = contexts.first else {
            let output = AccountListOutput(sessions: [])
            return try ConfigOutput.print(output, json: global.json, lines: output.lines(now: Date(), on: global.terminal))
        }
        var servers: [(accounts: [Account], vaults: VaultFactory)] = []
        if configured {
            // The configured server first; a session from before accounts moves over on this read.
            let here = try await context.rider.accounts.list()
            let resolved = try? await context.resolvedVaults()
            servers.append((here, resolved ?? context.vaults))
        }
        for (registry, binding) in FileAccountRegistry.stored(in: context.configuration.directories)
        where !configured || registry.server != context.server {
            let accounts = (try? await registry.accounts()) ?? []
            if !accounts.isEmpty { servers.append((accounts, context.vaults.forServer(binding))) }
        }
        var rows: [AccountSessionOutput] = []
        for (accounts, vaults) in servers {
            for account in accounts {
                let vault = vaults.make(account: account.id)
                let session: Result<Session?, any Error>
                do { session = .success(try await vault.loadSession()) } catch { session = .failure(error) }
                rows.append(AccountSessionOutput(account, session: session, vault: await Self.backend(of: vault),
                                                 vaultLocation: await Self.location(of: vault), now: context.now))
            }
        }
        let output = AccountListOutput(sessions: rows)
        let terminal = global.terminal
        try context.print(json: output, style: terminal.style, lines: output.lines(now: context.now, on: terminal))
    }

    /// Where the session is kept, in words (`encrypted file /path (…)`): the automatic vault's
    /// choice, once made.
    static func location(of vault: any TokenVault) async -> String {
        guard let automatic = vault as? AutomaticTokenVault else { return vault.location }
        return await automatic.select().vault.location
    }

    /// The vault holding the active account's session, in a word and in words, as
    /// `rider session list` gives both: `session show` says the same of the same session.
    static func describe(_ rider: RiderKit) async -> (kind: String, location: String) {
        var vault = rider.vault
        if let accounts = vault as? AccountTokenVault, let account = try? await accounts.account(),
           let made = try? await accounts.vault(for: account) {
            vault = made
        }
        return (await backend(of: vault), await location(of: vault))
    }

    /// The backend holding the session, in a word: the automatic vault's choice, once made.
    static func backend(of vault: any TokenVault) async -> String {
        if let automatic = vault as? AutomaticTokenVault { return await automatic.select().backend.name }
        switch vault {
        case is SecretServiceTokenVault: return VaultChoice.secretService.name
        case is EncryptedFileTokenVault: return VaultChoice.encryptedFile(nil).name
        default: return VaultChoice.memory.name
        }
    }
}
