import ArgumentParser
import RiderKit

/// `rider logout`: revokes the session on the server and forgets it here.
struct LogoutCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Log out: revoke the session on the server and remove it from this machine.",
        discussion: """
            The local session is removed even when the server cannot be reached; the output \
            says whether the server was told. Logging out when nobody is logged in is not an error.

            The tokens are revoked only at the revocation endpoint the session was signed in \
            with: when revoke_path (or the issuer) now names one on another server, nothing is \
            sent, the session is kept and the command fails (exit 11). Put the setting back to \
            revoke it, or remove it here only with `rider vault reset`.

            Logs out of the server's active account, or of the one given with --account; with \
            --all, of every account stored for the server. When the active account logs out, the \
            most recently signed-in of the others becomes active, and the output says which.

            Examples:
              rider logout
              rider logout --account ana@example.com
              rider logout --all
            """
    )

    @Flag(help: "Log out of every account stored for the server.")
    var all = false

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func validate() throws {
        if all, global.account != nil { throw ValidationError("--all and --account cannot be used together.") }
    }

    func run() async throws {
        try CommandContext.refuseGivenToken(to: "log out of the stored session")
        guard all else {
            let context = try CommandContext(global)
            let account = try await context.rider.accounts.current()
            let outcome = try await context.rider.logout()
            // Another account takes over only when the active one logged out.
            let nowActive = account?.isActive == true ? try? await context.rider.accounts.active()?.displayName : nil
            let output = LogoutOutput(outcome, account: account?.displayName, nowActive: nowActive)
            try context.print(json: output, lines: [output.line])
            return
        }
        // Without a configured server, every server with stored sessions is logged out of.
        let (contexts, configured) = try CommandContext.forStoredSessions(global)
        var outputs: [LogoutOutput] = []
        for context in contexts {
            var options = global
            if !configured { options.server = context.server }
            for account in try await context.rider.accounts.list() {
                let bound = try CommandContext(options, account: account.id.rawValue)
                let name = contexts.count > 1 ? "\(account.displayName) on \(context.server)" : account.displayName
                outputs.append(LogoutOutput(try await bound.rider.logout(), account: name, nowActive: nil))
            }
        }
        // Printed without a context: with no server configured there may be none.
        try ConfigOutput.print(LogoutAllOutput(accounts: outputs), json: global.json,
                               lines: outputs.isEmpty ? ["Not logged in; nothing to do."] : outputs.map(\.line))
    }
}
