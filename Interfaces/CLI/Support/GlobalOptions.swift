import ArgumentParser
import Foundation
import RiderKit

/// The options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: Help.server) var server: String?
    @Option(name: .long, help: Help.issuer) var issuer: String?
    @Option(name: .long, help: Help.resource) var resource: String?
    @Option(name: .long, help: Help.account) var account: String?

    @Flag(name: .long, help: "Print machine-readable JSON on stdout (snake_case keys, ISO-8601 dates); errors go to stderr as JSON.")
    var json = false

    @Flag(name: .long, help: "Log each request (method, URL, status) to stderr. Never logs headers, bodies or tokens.")
    var verbose = false

    @Option(name: .long, help: ArgumentHelp(
        "When to style human-readable output: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never.",
        valueName: "when"))
    var color: ColorMode = .auto

    @Option(name: .long, help: ArgumentHelp(
        "Also write each HTTP request and response into this folder as JSON, tokens and passwords redacted.",
        valueName: "folder"), completion: .directory)
    var record: String?

    @Option(name: .long, help: Help.replay, completion: .directory) var replay: String?

    /// The help of the options that choose the server, provider and session, which a command with
    /// options of its own (`session token`) declares again.
    enum Help {
        static let server = ArgumentHelp(
            "The server's base URL, e.g. https://api.example.com (overrides RIDER_BASE_URL).", valueName: "url")
        static let issuer = ArgumentHelp(
            "The OAuth provider's issuer, e.g. https://id.example.com: its metadata names the token endpoint (overrides RIDER_ISSUER).",
            valueName: "url")
        static let resource = ArgumentHelp(
            "The protected resource to sign in to, e.g. https://api.example.com/: its metadata (RFC 9728) names the provider, and the session's tokens are for it alone (overrides RIDER_RESOURCE; alone, it is the server too).",
            valueName: "url")
        static let account = ArgumentHelp(
            "The account to act as, by email or user id, among those signed in on the server (overrides RIDER_ACCOUNT; default: the server's active account).",
            valueName: "email|id")
        static let replay = ArgumentHelp(
            "Answer every request from a folder written by --record instead of the network.", valueName: "folder")
    }

    func validate() throws {
        if record != nil, replay != nil {
            throw ValidationError("--record and --replay cannot be used together: record a session first, "
                + "then replay it from the folder.")
        }
    }

    /// How stdout is laid out and styled: tables and colour on a terminal, plain when piped.
    var terminal: TerminalOutput { TerminalOutput(color: color) }

    /// What --record or --replay asks for. A replay continues across runs, so the commands of a
    /// recorded session replay one after another.
    var recording: HTTPRecording? {
        if let record { return .record(into: URL(fileURLWithPath: record, isDirectory: true)) }
        if let replay { return .replay(from: URL(fileURLWithPath: replay, isDirectory: true), acrossRuns: true) }
        return nil
    }
}
