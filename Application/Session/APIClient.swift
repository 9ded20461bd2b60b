import Foundation
import RiderDomain

/// Sends ``Endpoint`` values through the ``RequestPipeline``: each with the options its
/// endpoint promises (a bearer token or none, how it may be retried).
package struct APIClient: Sendable {
    package let configuration: APIConfiguration
    private let pipeline: RequestPipeline
    /// The configuration's paths, each resolved to a URL once.
    private let paths: ResolvedPaths

    /// - Parameters:
    ///   - configuration: the server's address and paths, the client's identity, the timeout.
    ///   - pipeline: the steps every request goes through, as the composition root declares them.
    package init(configuration: APIConfiguration, pipeline: RequestPipeline) {
        self.configuration = configuration
        self.pipeline = pipeline
        paths = ResolvedPaths(configuration: configuration)
    }

    /// A client with the steps a request needs when nobody declared them: retries, then the
    /// session's bearer token, in front of `transport`.
    /// - Parameters:
    ///   - configuration: the server's address and paths, the client's identity, the timeout.
    ///   - transport: the transport behind those steps.
    ///   - sessions: supplies the bearer token of authorized requests and renews it after a 401.
    ///   - random: a number in `0..<1` for retry jitter; injected so tests are repeatable.
    ///   - metrics: told of every retry.
    package init(configuration: APIConfiguration, transport: any HTTPTransport, sessions: SessionEngine,
                random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
                metrics: any MetricsRecorder = NoMetrics()) {
        self.init(configuration: configuration, pipeline: RequestPipeline(transport: transport, middlewares: [
            RetryMiddleware(clock: sessions.clock, random: random, metrics: metrics),
            AuthorizationMiddleware(sessions: sessions),
        ]))
    }

    /// Sends `endpoint` and returns its decoded response.
    /// - Throws: `RiderError` for every failure the contract knows, `CancellationError` when cancelled.
    package func send<Response>(_ endpoint: Endpoint<Response>) async throws -> Response {
        let request = try endpoint.request(through: paths, in: configuration)
        let options = RequestOptions(isAuthorized: endpoint.authorization == .bearer, retryPolicy: endpoint.retryPolicy)
        return try endpoint.response(from: try await pipeline.send(request, options: options))
    }
}
