import ArgumentParser
import RiderKit

/// `rider register`: creates an account (does not log in).
struct RegisterCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Create an account. Log in with `rider login` afterwards.",
        discussion: """
            The password (at least 8 characters) is asked twice on the terminal without echo, or \
            read once from the first line of standard input with --password-stdin.

            Example:
              rider register --email new@example.com --display-name "New Rider" \\
                --type learner
            """
    )

    @Option(help: ArgumentHelp("The email address to register; asked on the terminal when left out.",
                               valueName: "address"))
    var email: String?

    @Option(help: ArgumentHelp("The name other riders see (1 to 60 characters).", valueName: "name"))
    var displayName: String

    @Option(name: .customLong("type"), help: "Whether you offer rides as a mentor or look for one as a learner.")
    var riderType: RiderTypeArgument

    @Flag(help: "Read the password from the first line of standard input instead of asking for it.")
    var passwordStdin = false

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        let context = try CommandContext(global)
        let email = try email ?? TerminalInput.readLine(prompt: "Email: ", echo: true, hint: "pass --email")
        let password = try PasswordInput.readNew(fromStandardInput: passwordStdin)
        let registration = Registration(email: email, password: password, displayName: displayName,
                                        riderType: riderType.riderType)
        let id = try await context.rider.register(registration)
        let output = RegisterOutput(id: id.rawValue, email: email)
        let (shownEmail, shownID) = (email.terminalSafe, id.rawValue.terminalSafe)
        try context.print(json: output, lines: [
            "Registered \(shownEmail) as \(shownID). Log in with: rider login --email \(shownEmail)"
        ])
    }
}
