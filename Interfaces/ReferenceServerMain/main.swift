import ArgumentParser
import Foundation
import RiderReferenceServer

/// `rider-server`: runs the reference server until SIGINT or SIGTERM.
///
/// The first line on standard output is the base URL, so scripts can start it with
/// `--port 0` and read where it listens; the second names the demo account. Logs go to
/// standard error.
struct RiderServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rider-server",
        abstract: "Run the RiderKit reference server (in-memory, for demos and tests).",
        version: ReferenceServer.version
    )

    @Option(help: "Address to bind. Loopback only unless --allow-non-loopback is given.")
    var host = "127.0.0.1"

    @Option(help: "TCP port; 0 picks a free one (read it from the first output line).")
    var port = 8080

    @Option(name: .customLong("seed-users"), help: "Number of generated users besides the demo account.")
    var seedUsers = 1000

    @Option(help: "Seed for the generated users; equal seeds give equal data.")
    var seed: UInt64 = 42

    @Option(name: .customLong("access-ttl"), help: "Access token lifetime in seconds.")
    var accessTTL = 60

    @Option(name: .customLong("refresh-ttl"), help: "Refresh token lifetime in seconds.")
    var refreshTTL = 30 * 24 * 60 * 60

    @Option(name: .customLong("demo-email"), help: "Email of the demo account u_000000.")
    var demoEmail = "demo@example.com"

    @Option(name: .customLong("demo-password"), help: "Password of the demo account.")
    var demoPassword = "rider-demo"

    @Option(name: .customLong("device-code-lifetime"), help: "Seconds a device code (RFC 8628) can be approved and redeemed.")
    var deviceCodeLifetime = 600

    @Option(name: .customLong("device-poll-interval"), help: "Seconds a device must wait between token polls (RFC 8628 interval).")
    var devicePollInterval = 5

    @Flag(name: .customLong("no-password-grant"),
          help: "Refuse the password grant (unsupported_grant_type) and leave it out of the metadata, as RFC 9700 asks of providers: clients sign in with a device code.")
    var noPasswordGrant = false

    @Option(help: ArgumentHelp(
        "DPoP (RFC 9449): off; supported (proofs taken, tokens issued with one bound to its key, ES256 in the metadata); required (token requests without a proof refused with invalid_dpop_proof).",
        valueName: "off|supported|required"))
    var dpop: DPoPMode = .off

    @Flag(name: .customLong("dpop-nonce"),
          help: "With --dpop, demand a server nonce in every DPoP proof (use_dpop_nonce, DPoP-Nonce on every response, rotated every 5 minutes).")
    var dpopNonce = false

    @Option(help: ArgumentHelp(
        "Pushed authorization requests (RFC 9126): off; supported (POST /oauth2/par takes them, the metadata names it); required (the authorization endpoint takes only a request_uri from /oauth2/par).",
        valueName: "off|supported|required"))
    var par: PushedAuthorizationMode = .off

    @Option(name: .customLong("client-public-key"),
            help: ArgumentHelp("Register rider-key-client with this public key (PEM, P-256 or RSA): it then authenticates with private_key_jwt assertions (RFC 7523).",
                               valueName: "file"))
    var clientPublicKey: String?

    @Option(name: .customLong("dpop-required-client"),
            help: ArgumentHelp("With --dpop supported: require DPoP proofs of this client anyway (repeatable), as FAPI 2.0 requires per client.",
                               valueName: "client-id"))
    var dpopRequiredClients: [String] = []

    @Option(help: ArgumentHelp(
        "Dynamic client registration (RFC 7591) at POST /oauth2/register: open (public native clients with loopback redirect URIs may register; the metadata names the endpoint); off (404, not in the metadata).",
        valueName: "open|off"))
    var registration: ClientRegistrationMode = .open

    @Option(name: .customLong("registration-limit"),
            help: ArgumentHelp("The most clients /oauth2/register registers while the server runs; past it registrations are refused (429).",
                               valueName: "n"))
    var registrationLimit = 1000

    @Flag(name: .customLong("form-hostile-tokens"), help: "Issue tokens that contain +, / and = to test client form encoding.")
    var formHostileTokens = false

    @Flag(name: .customLong("allow-non-loopback"), help: "Allow binding a non-loopback address. The demo password is printed; think twice.")
    var allowNonLoopback = false

    @Flag(name: .customLong("enable-test-hooks"),
          help: "Serve the /_test/* hooks (counters, forced token expiry, an open redirect) for tests and benchmarks; while on, only requests with a loopback Host are answered (421 otherwise).")
    var enableTestHooks = false

    @Flag(help: "Log one line per request to standard error.")
    var verbose = false

    @Flag(name: .customLong("exit-with-parent"),
          help: "Stop when the process that started this one exits (checked twice a second), so a crashed test or benchmark leaves no server behind.")
    var exitWithParent = false

    func validate() throws {
        guard accessTTL >= 0, refreshTTL > 0 else {
            throw ValidationError("--access-ttl must be 0 or more and --refresh-ttl more than 0 seconds.")
        }
        guard deviceCodeLifetime >= 1, devicePollInterval >= 1 else {
            throw ValidationError("--device-code-lifetime and --device-poll-interval must be at least 1 second.")
        }
        guard dpopRequiredClients.isEmpty || dpop != .off else {
            throw ValidationError("--dpop-required-client needs --dpop supported or --dpop required.")
        }
        guard !dpopNonce || dpop != .off else {
            throw ValidationError("--dpop-nonce needs --dpop supported or --dpop required.")
        }
        guard registrationLimit >= 1 else {
            throw ValidationError("--registration-limit must be at least 1; use --registration off to refuse every registration.")
        }
        guard allowNonLoopback || makeConfiguration().isLoopbackHost else {
            throw ValidationError("\(host) is not a loopback address; this test server prints its credentials. Pass --allow-non-loopback to bind it anyway.")
        }
    }

    func run() async throws {
        var configuration = makeConfiguration()
        if let clientPublicKey {
            guard let pem = try? String(contentsOfFile: clientPublicKey, encoding: .utf8) else {
                FileHandle.standardError.write(Data("rider-server: cannot read the client public key \(clientPublicKey)\n".utf8))
                throw ExitCode.failure
            }
            configuration.clientPublicKeyPEM = pem
        }
        configuration.dpopRequiredClients = Set(dpopRequiredClients)
        configuration.clientRegistration = registration
        configuration.registrationLimit = registrationLimit
        // Read first: a parent that exits while the server starts is noticed all the same.
        let parent = getppid()
        let server: RunningReferenceServer
        do {
            server = try await ReferenceServer.start(configuration)
        } catch {
            FileHandle.standardError.write(Data("rider-server: \(error.localizedDescription)\n".utf8))
            throw ExitCode.failure
        }
        // Unbuffered writes: a script waiting for the first line must not wait for a buffer to fill.
        FileHandle.standardOutput.write(Data("\(server.baseURL.absoluteString)\n".utf8))
        FileHandle.standardOutput.write(Data("demo account: \(demoEmail) / \(demoPassword)\n".utf8))
        if exitWithParent { Self.stop(server, whenParentOf: parent) }
        await server.waitUntilStopped()
    }

    /// Watches for the parent's exit: the kernel then gives this process a new parent (init or a
    /// subreaper), which `getppid()` shows. (`PR_SET_PDEATHSIG` would fire when the *thread* that
    /// started us exits, which a parent's thread pool may do at any time.)
    private static func stop(_ server: RunningReferenceServer, whenParentOf parent: pid_t) {
        Task.detached {
            while getppid() == parent {
                try? await Task.sleep(for: .milliseconds(500))
            }
            FileHandle.standardError.write(Data("rider-server: the process that started it exited; stopping\n".utf8))
            await server.stop()
        }
    }

    private func makeConfiguration() -> ReferenceServerConfiguration {
        ReferenceServerConfiguration(
            host: host,
            port: port,
            seedUsers: seedUsers,
            seed: seed,
            accessTokenTTL: .seconds(accessTTL),
            refreshTokenTTL: .seconds(refreshTTL),
            demoEmail: demoEmail,
            demoPassword: demoPassword,
            tokenAlphabet: formHostileTokens ? .formHostile : .base64URL,
            stopsOnTerminationSignals: true,
            verboseLogging: verbose,
            enableTestHooks: enableTestHooks,
            deviceCodeLifetime: .seconds(deviceCodeLifetime),
            devicePollInterval: .seconds(devicePollInterval),
            passwordGrant: !noPasswordGrant,
            dpop: dpop,
            dpopNonces: dpopNonce,
            pushedAuthorization: par
        )
    }
}

extension DPoPMode: ExpressibleByArgument {}
extension PushedAuthorizationMode: ExpressibleByArgument {}
extension ClientRegistrationMode: ExpressibleByArgument {}

// `AsyncParsableCommand.main()` is shadowed by the synchronous overload in top-level code,
// so parse and run explicitly.
do {
    let command = try RiderServerCommand.parse()
    try await command.run()
} catch {
    RiderServerCommand.exit(withError: error)
}
