import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import UnixSignals

/// An HTTP server that implements the RiderKit wire contract (`docs/openapi.yaml`) in memory.
///
/// It exists for demos, integration tests and benchmarks, and shares no code with the RiderKit
/// client, so that the two are independent implementations of the same contract.
///
/// ```swift
/// let server = try await ReferenceServer.start(.init(seedUsers: 100))
/// print(server.baseURL) // http://127.0.0.1:41234
/// // … talk to it …
/// await server.stop()  // awaited, on every path, so the port is free when this returns
/// ```
public enum ReferenceServer {
    /// The release of RiderKit this server ships with (`rider-server --version`); the same as the
    /// client's, which the CLI tests check, though the two share no code.
    public static let version = "0.9.0"

    /// Starts a server and returns once its port is bound.
    /// - Parameter configuration: Host, port, seed data and token lifetimes.
    /// - Returns: The running server, its base URL and its store.
    /// - Throws: ``ReferenceServerError`` when the configuration is invalid or the port cannot be bound.
    public static func start(
        _ configuration: ReferenceServerConfiguration = ReferenceServerConfiguration()
    ) async throws -> RunningReferenceServer {
        try configuration.validate()
        let logger = configuration.logger ?? defaultLogger(verbose: configuration.verboseLogging)
        let store = ReferenceStore(configuration: configuration)
        let latch = StartupLatch()
        let application = makeApplication(configuration, store: store, logger: logger,
                                          onServerRunning: { channel in latch.succeed(port: channel.localAddress?.port) })
        var groupConfiguration = ServiceGroupConfiguration(
            services: [.init(service: application)],
            gracefulShutdownSignals: configuration.stopsOnTerminationSignals ? [.sigterm, .sigint] : [],
            logger: logger
        )
        // A client holding a connection open must not keep a test waiting forever: after 3 s the
        // graceful shutdown turns into cancellation. Cancellation itself gets no limit, because
        // ServiceLifecycle answers an exceeded limit with fatalError: a cancellation that merely
        // ran slow would kill the whole test process (every in-process server and every test
        // with it) instead of failing one test.
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(3)
        groupConfiguration.maximumCancellationDuration = nil
        let group = ServiceGroup(configuration: groupConfiguration)
        let task = Task {
            do {
                try await group.run()
                latch.fail(ReferenceServerError.couldNotStart("the server stopped before it listened"))
            } catch {
                logger.error("reference server stopped", metadata: ["error": "\(error)"])
                latch.fail(ReferenceServerError.couldNotStart("\(error)"))
            }
        }
        let port = try await latch.port()
        let url = try baseURL(host: configuration.host, port: port)
        await store.setOrigin(url.absoluteString)
        return RunningReferenceServer(
            baseURL: url,
            store: store,
            group: group,
            task: task
        )
    }

    /// The server's application, not listening anywhere, for tests that send requests straight to
    /// its responder (HummingbirdTesting's `.router`): no socket, no port, nothing to stop.
    /// - Parameters:
    ///   - configuration: as for ``start(_:)``; host and port are ignored.
    ///   - origin: the base URL the server names in the links it writes (avatar URLs).
    ///   - now: the server's wall clock; a test that is about expiry passes one it moves itself.
    /// - Returns: the application and its store.
    /// - Throws: ``ReferenceServerError`` when the configuration is invalid.
    package static func unstartedApplication(
        _ configuration: ReferenceServerConfiguration, origin: String,
        now: @escaping @Sendable () -> Date = { Date() }
    ) async throws -> (application: some ApplicationProtocol, store: ReferenceStore) {
        try configuration.validate()
        let logger = configuration.logger ?? defaultLogger(verbose: configuration.verboseLogging)
        let store = ReferenceStore(configuration: configuration, now: now)
        await store.setOrigin(origin)
        return (makeApplication(configuration, store: store, logger: logger, onServerRunning: { _ in }), store)
    }

    private static func makeApplication(
        _ configuration: ReferenceServerConfiguration, store: ReferenceStore, logger: Logger,
        onServerRunning: @escaping @Sendable (any Channel) async -> Void
    ) -> some ApplicationProtocol {
        Application(
            responder: ReferenceResponder(
                store: store,
                maximumBodySize: configuration.maximumBodySize,
                maximumAvatarSize: configuration.maximumAvatarSize,
                testHooks: configuration.enableTestHooks,
                passwordGrant: configuration.passwordGrant,
                idTokens: IDTokenSigner(),
                dpop: configuration.dpop,
                proofs: DPoPProofVerifier(now: store.now, requiresNonces: configuration.dpop != .off && configuration.dpopNonces),
                pushedAuthorization: configuration.pushedAuthorization,
                clientPublicKeyPEM: configuration.clientPublicKeyPEM,
                dpopRequiredClients: configuration.dpop == .off ? [] : configuration.dpopRequiredClients,
                clientRegistration: configuration.clientRegistration,
                metadataNoStore: configuration.metadataNoStore,
                logger: logger
            ),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "rider-reference-server"
            ),
            onServerRunning: onServerRunning,
            logger: logger
        )
    }

    /// Logs to standard error, so that standard output stays free for the base URL line.
    private static func defaultLogger(verbose: Bool) -> Logger {
        var logger = Logger(label: "rider-reference-server") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = verbose ? .info : .warning
        return logger
    }

    private static func baseURL(host: String, port: Int) throws -> URL {
        let authority = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        guard let url = URL(string: "http://\(authority):\(port)") else {
            throw ReferenceServerError.invalidConfiguration("host \(host) does not form a URL")
        }
        return url
    }
}
