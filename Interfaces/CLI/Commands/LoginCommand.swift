import ArgumentParser
import Foundation
import RiderKit

/// `rider login`: signs in and keeps the session on this machine.
struct LoginCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Log in and keep the session on this machine.",
        discussion: """
            Asks for the password on the terminal without echo, or reads the first line of \
            standard input with --password-stdin. There is deliberately no option that takes the \
            password itself: it would show up in the process list and your shell history.

            The session is renewed automatically while it can be; `rider session show` tells \
            where it is kept and until when it is valid.

            Examples:
              rider login --email demo@example.com
              printf '%s\\n' "$PASSWORD" |
                rider login --email demo@example.com --password-stdin
            """
    )

    @Option(help: ArgumentHelp("The account's email address; asked on the terminal when left out.",
                               valueName: "address"))
    var email: String?

    @Flag(help: "Read the password from the first line of standard input instead of asking for it.")
    var passwordStdin = false

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        // Configuration first, so a missing server is reported before anyone types a password.
        let context = try CommandContext(global)
        let email = try email ?? TerminalInput.readLine(prompt: "Email: ", echo: true, hint: "pass --email")
        let password = try PasswordInput.read(fromStandardInput: passwordStdin)
        let session = try await context.rider.login(Credentials(email: email, password: password))
        let output = LoginOutput(server: context.server, email: email, session: session)
        try context.print(json: output, lines: [output.line])
    }
}
