import ArgumentParser
import RiderKit

/// `rider session refresh`: renews the session now.
struct SessionRefreshCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh",
        abstract: "Renew the session now with the refresh token.",
        discussion: """
            Not needed in everyday use: every command renews an expiring session by itself. \
            Exits with 4 when the server no longer accepts the session; log in again then.

            Example:
              rider session refresh
            """
    )

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        let context = try CommandContext(global)
        let session = try await context.rider.sessions.refresh()
        let vault = await SessionListCommand.describe(context.rider)
        let output = SessionOutput(session, server: context.server, vault: vault.kind, vaultLocation: vault.location,
                                   now: context.now)
        let validity = output.expiresAt.map { "valid until \(HumanFormat.date($0))" } ?? "expiry not stated by the server"
        try context.print(json: output, lines: ["Session refreshed for \(output.userID.terminalSafe), \(validity)"])
    }
}
