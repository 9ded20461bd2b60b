import ArgumentParser
import RiderApplication
import RiderKit

/// `rider session token`: a valid access token on standard output, for scripts — the one command
/// that prints a secret, as `gh auth token` does.
struct SessionTokenCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print a valid access token for scripts, and nothing else.",
        discussion: """
            Renews the session first when its access token is expired or about to expire, then \
            prints the access token and a newline on standard output. It is the one command that \
            prints a secret: it refuses --verbose and --record, which would copy the requests \
            elsewhere, and --json. Exits with 4 when no session is stored or it cannot be renewed.

            Keep the token off command lines: every user on the machine can read a process's \
            arguments (ps, /proc/PID/cmdline), so `curl -H "Authorization: Bearer $(rider \
            session token)"` shows it to them. With --header it prints the whole header line, \
            which curl reads from standard input with -H @-.

            Example:
              rider session token --header | curl -H @- "$RIDER_BASE_URL/auth/me"
            """
    )

    @Flag(name: .long, help: "Print the header line `Authorization: Bearer TOKEN` instead, for `curl -H @-`.")
    var header = false

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func validate() throws {
        if global.verbose { throw ValidationError("session token prints a secret: leave out --verbose") }
        if global.record != nil { throw ValidationError("session token prints a secret: leave out --record") }
        if global.json { throw ValidationError("session token prints the token alone: leave out --json") }
    }

    func run() async throws {
        let context = try CommandContext(global)
        let session = try await context.rider.sessions.validSession()
        // Byte for byte: a token is visible ASCII (checked when it was issued), nothing to escape.
        Console.standardOutput(json: header ? "Authorization: Bearer \(session.accessToken)" : session.accessToken)
    }
}
