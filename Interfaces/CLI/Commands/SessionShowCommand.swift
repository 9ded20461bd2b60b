import ArgumentParser
import RiderKit

/// `rider session show`: the stored session, without contacting the server.
struct SessionShowCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show the stored session: server, user id, role, expiry and where it is kept.",
        discussion: """
            Reads the vault only; the server is not contacted. Never shows a token.

            Example:
              rider session show --json
            """
    )

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        let context = try CommandContext(global)
        guard let session = try await context.rider.sessions.currentSession() else { throw RiderError.notSignedIn }
        let account = try? await context.rider.accounts.current()
        let vault = await SessionListCommand.describe(context.rider)
        let output = SessionOutput(session, server: context.server, vault: vault.kind, vaultLocation: vault.location,
                                   now: context.now, account: account?.email ?? account?.displayName,
                                   dpopKeyThumbprint: context.rider.sessions.service.dpop?.thumbprint(of: session))
        try context.print(json: output, lines: output.lines(now: context.now))
    }
}
