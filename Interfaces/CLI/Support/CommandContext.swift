import Foundation
import Logging
import RiderApplication
import RiderInfrastructure
import RiderKit

/// What a command runs with: RiderKit wired from the configuration and the global options,
/// and how to print.
struct CommandContext: Sendable {
    let rider: RiderKit
    let options: GlobalOptions
    /// Every vault backend for this server, for the `rider vault` commands.
    let vaults: VaultFactory

    /// - Throws: ``RiderError/invalidConfiguration(_:underlying:)`` when no usable server is configured.
    /// - Parameter account: the account to act as, winning over `--account` (`rider logout --all`).
    init(_ options: GlobalOptions, environment: [String: String] = ProcessInfo.processInfo.environment,
         account: String? = nil) throws {
        var environment = environment
        if let resource = options.resource { environment["RIDER_RESOURCE"] = resource }
        var configuration = try RiderKit.Configuration.load(environment: environment, baseURL: options.server,
                                                                    issuer: options.issuer)
        if let account = account ?? options.account { configuration.account = account }
        configuration.identity.program = "rider/\(RequestIdentity.libraryVersion)"
        configuration.reauthentication = ReauthenticationPrompt.make()
        if let token = Self.givenToken(environment) {
            // Used as it is: nothing stored, nothing renewed, nobody asked for a password.
            configuration.accessToken = try GivenAccessToken(token, source: Self.tokenVariable)
            configuration.reauthentication = nil
        }
        configuration.recording = options.recording
        if options.verbose {
            var logger = Logger(label: "rider.http") { _ in StandardErrorLogHandler() }
            logger.logLevel = .debug
            configuration.logger = logger
        }
        // The environment's passphrase wins; otherwise ask on the terminal, when there is one.
        let file = VaultFactory(configuration: configuration).encryptedFile().file
        // Remembered here, so the vault commands' vaults and RiderKit's ask once between them.
        configuration.vaultPassphrase = configuration.vaultPassphrase
            .orElse(VaultPrompt.passphrase(confirmingNewFile: file)).remembered()
        vaults = VaultFactory(configuration: configuration)
        // Warnings (a damaged cache file moved aside) always reach stderr, with or without --verbose.
        var warnings = Logger(label: "rider.warnings") { _ in StandardErrorLogHandler(prefix: "rider: warning: ") }
        warnings.logLevel = .warning
        configuration.warnings = warnings
        rider = try RiderKit.live(configuration: configuration)
        OpenRiders.shared.add(rider)
        self.options = options
        self.configuration = configuration
    }

    /// For the commands that read every stored session (`session list`, `session switch`,
    /// `logout --all`): the configured server's context, or — when no server is configured at
    /// all — the context of each server with stored sessions, so they work on a machine that
    /// only has sessions. `configured` says which.
    /// - Returns: the contexts (none when nothing is configured and nothing is stored).
    /// - Throws: what ``init(_:environment:account:)`` throws for a configuration that names a
    ///   server but is unusable.
    static func forStoredSessions(_ options: GlobalOptions,
                                  environment: [String: String] = ProcessInfo.processInfo.environment)
        throws -> (contexts: [CommandContext], configured: Bool)
    {
        // They read and change what is stored, which a token in the environment is not.
        var environment = environment
        environment[tokenVariable] = nil
        guard options.server == nil, options.issuer == nil,
              try !RiderKit.Configuration.namesServer(environment: environment) else {
            return ([try CommandContext(options, environment: environment)], true)
        }
        let stored = FileAccountRegistry.stored(in: XDGDirectories(environment: environment))
        var server = options
        return (try stored.map { _, binding in
            server.server = binding.apiOrigin
            return try CommandContext(server, environment: environment)
        }, false)
    }

    /// The variable holding an access token to use as it is (a CI job's secret), as `GH_TOKEN`.
    static let tokenVariable = "RIDER_TOKEN"

    /// The access token in ``tokenVariable``, when it is set and not empty.
    static func givenToken(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        environment[tokenVariable].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// For the commands that change the stored session (`login`, `logout`): with ``tokenVariable``
    /// set, every other command uses that token and the stored session is out of play.
    /// - Throws: ``CLIError/usage(_:)`` when ``tokenVariable`` is set.
    static func refuseGivenToken(to action: String) throws {
        guard givenToken() != nil else { return }
        throw CLIError.usage("\(tokenVariable) is set, and rider uses that token as it is and stores nothing; "
            + "unset \(tokenVariable) to \(action).")
    }

    /// What ``rider`` was made from: for commands that make one per account or per server.
    let configuration: RiderKit.Configuration

    /// ``vaults`` bound as RiderKit binds the session: with an issuer, to the token endpoint its
    /// metadata names (read, or taken from the cache, on this call).
    /// - Throws: what reading the issuer's metadata throws.
    func resolvedVaults() async throws -> VaultFactory {
        try await vaults.resolved(by: rider.authorizationServer)
    }

    /// The accounts a `rider vault` command acts on: the one named with `--account` (or
    /// `RIDER_ACCOUNT`), else every account stored for the server.
    /// - Throws: `RiderError.unknownAccount(_:server:stored:)`, ``RiderError/storage(_:underlying:)``.
    func vaultAccounts() async throws -> [Account] {
        if let name = configuration.account { return [try await rider.accounts.named(name)] }
        return try await rider.accounts.list()
    }

    /// The time by RiderKit's clock, for "in 5 min" and "stored 2 h ago": in a replay, the
    /// recorded time, so such lines come out as they did when it was recorded.
    var now: Date { rider.sessions.clock.now }

    /// The server as people name it (`https://api.example.com`).
    var server: String { rider.api.origin }

    /// The identity provider configured (`--issuer`, `RIDER_ISSUER`), if any.
    var issuer: String? { configuration.discovery?.issuer.absoluteString }

    /// Prints `json` with `--json`, else the human-readable `lines`, made terminal-safe by
    /// ``Console``.
    /// - Parameter style: the style `lines` were rendered with (tables and their headers), whose
    ///   bold and dim are kept; plain for every other output, so it keeps no escape at all.
    func print(json: some Encodable, style: TextStyle = .plain, lines: @autoclosure () -> [String]) throws {
        guard options.json else {
            Console.standardOutput(lines: lines(), style: style)
            return
        }
        guard let text = JSONOutput.string(json) else {
            throw RiderError.malformedResponse("the result cannot be written as JSON")
        }
        Console.standardOutput(json: text)
    }
}
