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

            Example:
              rider logout
            """
    )

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        let context = try CommandContext(global)
        let outcome = try await context.rider.logout()
        let output = LogoutOutput(outcome)
        try context.print(json: output, lines: [output.line])
    }
}
