import Foundation
import RiderDomain

/// Sends ``Endpoint`` values: public ones straight to the transport, authorized ones through
/// the session engine.
public struct APIClient: Sendable {
    public let configuration: APIConfiguration
    private let transport: any HTTPTransport
    private let authorizedTransport: AuthorizingTransport
    private let clock: any Clock
    private let random: @Sendable () -> Double
    private let sessions: SessionEngine
    private let metrics: any MetricsRecorder
    /// Signs the person in again when an authorized request finds the session expired; `nil`
    /// lets ``RiderError/sessionExpired`` reach the caller.
    private var reauthentication: ReauthenticationGate?

    /// - Parameters:
    ///   - configuration: the server's address and paths, the client's identity, the timeout.
    ///   - transport: the raw transport (wrap it in ``RedirectFollowingTransport`` for live use).
    ///   - sessions: supplies the bearer token of authorized requests and renews it after a 401.
    ///   - random: a number in `0..<1` for retry jitter; injected so tests are repeatable.
    ///   - metrics: told of every retry.
    public init(configuration: APIConfiguration, transport: any HTTPTransport, sessions: SessionEngine,
                random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
                metrics: any MetricsRecorder = NoMetrics()) {
        self.configuration = configuration
        self.metrics = metrics
        self.transport = transport
        self.authorizedTransport = AuthorizingTransport(base: transport, sessions: sessions)
        self.clock = sessions.clock
        self.random = random
        self.sessions = sessions
    }

    /// A client whose authorized requests go through `gate` when the session has expired: the
    /// person is asked to sign in again and the request is sent once more.
    public func reauthenticating(with gate: ReauthenticationGate?) -> APIClient {
        var copy = self
        copy.reauthentication = gate
        return copy
    }

    /// Sends `endpoint` and returns its decoded response.
    /// - Throws: `RiderError` for every failure the contract knows, `CancellationError` when cancelled.
    public func send<Response>(_ endpoint: Endpoint<Response>) async throws -> Response {
        let request = try endpoint.request(in: configuration)
        let base: any HTTPTransport = switch endpoint.authorization {
        case .none: transport
        case .bearer: authorizedTransport
        }
        // Retries wrap the session engine, so every attempt goes out with a valid token.
        var transport: any HTTPTransport = RetryingTransport(base: base, policy: endpoint.retryPolicy, clock: clock,
                                                              random: random, metrics: metrics)
        if endpoint.authorization == .bearer, let reauthentication {
            transport = ReauthenticatingTransport(base: transport, gate: reauthentication, sessions: sessions)
        }
        return try endpoint.response(from: try await transport.send(request))
    }

    /// Sends an authorized `endpoint` with the given session's token, bypassing the engine
    /// (used right after login, before the session is established).
    public func send<Response>(_ endpoint: Endpoint<Response>, as session: Session) async throws -> Response {
        let request = AuthorizingTransport.authorize(try endpoint.request(in: configuration), with: session)
        return try endpoint.response(from: try await transport.send(request))
    }
}
