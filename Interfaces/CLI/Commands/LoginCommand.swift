import ArgumentParser
import Foundation
import RiderApplication
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

            With --device (RFC 8628, for providers that offer it; set the issuer), rider shows \
            a page and a short code: approve the sign-in there, on any device, and rider \
            stores the session. No password passes through rider, and no terminal is needed. \
            The page opens in $BROWSER when it is set, else with xdg-open in a graphical \
            session; --no-browser only prints it.

            Examples:
              rider login --email demo@example.com
              printf '%s\\n' "$PASSWORD" |
                rider login --email demo@example.com --password-stdin
              rider login --device
            """
    )

    @Option(help: ArgumentHelp("The account's email address; asked on the terminal when left out.",
                               valueName: "address"))
    var email: String?

    @Flag(help: "Read the password from the first line of standard input instead of asking for it.")
    var passwordStdin = false

    @Flag(help: "Sign in by approving a code on another device (RFC 8628) instead of with a password.")
    var device = false

    @Flag(help: "With --device: print the page to open, without opening a browser.")
    var noBrowser = false

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func validate() throws {
        if device, email != nil || passwordStdin {
            throw ValidationError("--device signs in without a password: leave out --email and --password-stdin")
        }
        if noBrowser, !device { throw ValidationError("--no-browser goes with --device") }
    }

    func run() async throws {
        // Configuration first, so a missing server is reported before anyone types a password.
        let context = try CommandContext(global)
        if device { return try await signInWithDeviceCode(context) }
        if email == nil, !passwordStdin, try await deviceCodeIsTheWay(context) {
            Console.standardError("The provider does not offer sign-in with a password: signing in with a device code.")
            return try await signInWithDeviceCode(context)
        }
        let email = try email ?? TerminalInput.readLine(prompt: "Email: ", echo: true, hint: "pass --email")
        let password = try PasswordInput.read(fromStandardInput: passwordStdin)
        let session = try await context.rider.login(Credentials(email: email, password: password))
        let output = LoginOutput(server: context.server, email: email, session: session)
        try context.print(json: output, lines: [output.line])
    }

    /// Shows the code and the page on standard error (standard output keeps the result, so
    /// `--json` stays one object), then waits for the approval.
    private func signInWithDeviceCode(_ context: CommandContext) async throws {
        let pending = try await context.rider.signInWithDeviceCode.start()
        let page = pending.verificationURIComplete ?? pending.verificationURI
        Console.standardError("To sign in, open \(pending.verificationURI.absoluteString.terminalSafe) "
            + "and enter the code \(pending.userCode.terminalSafe)")
        if !noBrowser, try await SystemBrowserOpener().open(page) {
            Console.standardError("(the page was opened in your browser)")
        }
        Console.standardError("Waiting for the sign-in to be approved…")
        let session = try await context.rider.signInWithDeviceCode.complete(pending)
        // The session is stored; the email only decorates the answer, so a failure here is not one.
        let email = (try? await context.rider.currentUser())?.value.email ?? session.userID.rawValue
        let output = LoginOutput(server: context.server, email: email, session: session)
        try context.print(json: output, lines: [output.line])
    }

    /// Whether plain `rider login` should sign in with a device code: the issuer's metadata lists
    /// its grants, without the password grant and with the device code grant.
    private func deviceCodeIsTheWay(_ context: CommandContext) async throws -> Bool {
        let server = context.rider.authorizationServer
        guard try await server.passwordGrantRefusal() != nil, let discovery = server.discovery else { return false }
        return try await discovery.metadata().metadata.supportsGrant(AuthorizationServer.deviceCodeGrant)
    }
}
