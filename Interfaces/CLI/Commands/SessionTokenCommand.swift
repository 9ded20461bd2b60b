import ArgumentParser
import Foundation
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
            arguments (ps, /proc/PID/cmdline), so this shows it to them:
              curl -H "Authorization: Bearer $(rider session token)" URL
            With --header it prints the whole header line, which curl reads from standard \
            input with -H @-.

            A session bound to a DPoP key (RFC 9449; rider session show says so) has tokens that \
            are useless without a proof signed with its key for each request: --dpop-proof METHOD \
            URL prints both header lines, `Authorization: DPoP TOKEN` and `DPoP: PROOF`, for that \
            one request. The key itself is never printed.

            Examples:
              rider session token --header | curl -H @- "$RIDER_BASE_URL/auth/me"
              rider session token --dpop-proof GET "$RIDER_BASE_URL/auth/me" \\
                | curl -H @- "$RIDER_BASE_URL/auth/me"
            """
    )

    @Flag(name: .long, help: "Print the header line `Authorization: Bearer TOKEN` instead, for `curl -H @-`.")
    var header = false

    @Option(name: .customLong("dpop-proof"), parsing: .upToNextOption,
            help: ArgumentHelp("For a DPoP-bound session: print the Authorization and DPoP header lines for one "
                               + "request.", valueName: "METHOD URL"))
    var dpopProof: [String] = []

    @OptionGroup(title: "Global Options") var options: Options

    var global: GlobalOptions { options.global }

    /// The global options this command takes: those that choose the server, provider and session.
    /// --json, --verbose and --record are parsed but not shown in the help: `validate` says why each
    /// is refused (a hidden option is still read), and `--help` lists none of them. --color is
    /// accepted as everywhere, and has nothing to style.
    struct Options: ParsableArguments {
        @Option(name: .long, help: GlobalOptions.Help.server) var server: String?
        @Option(name: .long, help: GlobalOptions.Help.issuer) var issuer: String?
        @Option(name: .long, help: GlobalOptions.Help.resource) var resource: String?
        @Option(name: .long, help: GlobalOptions.Help.account) var account: String?
        @Option(name: .long, help: GlobalOptions.Help.replay, completion: .directory) var replay: String?
        @Flag(name: .long, help: .hidden) var json = false
        @Flag(name: .long, help: .hidden) var verbose = false
        @Option(name: .long, help: .hidden) var record: String?
        @Option(name: .long, help: .hidden) var color: ColorMode = .auto

        /// The same values as every other command's global options. Parsed from nothing first, so
        /// an option added to GlobalOptions later has its default here rather than no value.
        var global: GlobalOptions {
            var global = (try? GlobalOptions.parse([])) ?? GlobalOptions()
            (global.server, global.issuer, global.resource, global.account) = (server, issuer, resource, account)
            (global.json, global.verbose, global.record, global.replay, global.color) = (json, verbose, record, replay, color)
            return global
        }
    }

    func validate() throws {
        if global.verbose { throw ValidationError("session token prints a secret: leave out --verbose") }
        if global.record != nil { throw ValidationError("session token prints a secret: leave out --record") }
        if global.json { throw ValidationError("session token prints the token alone: leave out --json") }
        if !dpopProof.isEmpty {
            guard dpopProof.count == 2, let url = URL(string: dpopProof[1]), let scheme = url.scheme?.lowercased(),
                  scheme == "https" || scheme == "http", url.host != nil else {
                throw ValidationError("--dpop-proof takes a method and an absolute http(s) URL, e.g. --dpop-proof GET "
                    + "https://api.example.com/auth/me")
            }
            if header { throw ValidationError("--dpop-proof prints the header lines already: leave out --header") }
        }
    }

    func run() async throws {
        let context = try CommandContext(global)
        // Handed out of the process, where nothing renews it after a 401: renewed first when due.
        let session = try await context.rider.sessions.freshSession()
        // Byte for byte: a token and a proof are visible ASCII (checked when issued, base64url).
        if dpopProof.count == 2, let url = URL(string: dpopProof[1]) {
            guard let proof = try await context.rider.sessions.service.dpop?.proof(
                for: session, method: dpopProof[0].uppercased(), url: url) else {
                throw RiderError.invalidInput([FieldProblem(field: "--dpop-proof", message: "applies to a DPoP-bound "
                    + "session; this one is a bearer session: use --header")])
            }
            Console.standardOutput(json: "Authorization: DPoP \(session.accessToken)\nDPoP: \(proof)")
            return
        }
        if session.isSenderConstrained, header {
            throw RiderError.invalidInput([FieldProblem(field: "--header", message: "the session is bound to a DPoP key: "
                + "its token needs a proof for each request; use --dpop-proof METHOD URL")])
        }
        Console.standardOutput(json: header ? "Authorization: Bearer \(session.accessToken)" : session.accessToken)
    }
}
