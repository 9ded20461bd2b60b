import ArgumentParser
import RiderKit

/// `rider whoami`: the signed-in account as the server sees it.
struct WhoamiCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "whoami",
        abstract: "Show the account you are logged in as, fresh from the server.",
        discussion: """
            Asks the server (GET /auth/me), so it also proves the session still works; an expired \
            access token is renewed on the way.

            Example:
              rider whoami --json
            """
    )

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        let context = try CommandContext(global)
        let output = UserOutput(try await context.rider.currentUser().value)
        try context.print(json: output, lines: output.lines)
    }
}
