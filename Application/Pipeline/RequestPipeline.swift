import Foundation
import RiderDomain

/// The path from a use case to the wire: an ordered list of ``HTTPMiddleware``, outermost first,
/// in front of one ``HTTPTransport``.
///
/// Assembled once, where the composition root declares the list, and never per request (as
/// swift-openapi-runtime's `UniversalClient` does): what differs between requests travels with
/// each one as ``RequestOptions``. `docs/architecture.md` shows the order RiderKit uses and why.
package struct RequestPipeline: HTTPTransport {
    /// The steps, outermost first.
    package let middlewares: [any HTTPMiddleware]
    private let entry: @Sendable (HTTPRequest, RequestOptions) async throws -> HTTPResponse

    /// - Parameters:
    ///   - transport: what the innermost step sends through.
    ///   - middlewares: the steps, outermost first: the first sees a request first and its
    ///     response last.
    package init(transport: any HTTPTransport, middlewares: [any HTTPMiddleware]) {
        self.middlewares = middlewares
        var next: @Sendable (HTTPRequest, RequestOptions) async throws -> HTTPResponse = { request, _ in
            try await transport.send(request)
        }
        for middleware in middlewares.reversed() {
            let inner = next
            next = { request, options in
                try await middleware.intercept(request, options: options) { try await inner($0, options) }
            }
        }
        entry = next
    }

    /// Sends `request` through every step.
    /// - Throws: what the steps and the transport throw.
    package func send(_ request: HTTPRequest, options: RequestOptions) async throws -> HTTPResponse {
        try await entry(request, options)
    }

    /// Sends `request` through every step with ``RequestOptions/plain``: no token, no retry.
    /// - Throws: what the steps and the transport throw.
    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await entry(request, .plain)
    }

    /// This pipeline as a transport that sends every request with `options`.
    package func transport(for options: RequestOptions) -> any HTTPTransport {
        OptionsBoundTransport(pipeline: self, options: options)
    }
}

private struct OptionsBoundTransport: HTTPTransport {
    let pipeline: RequestPipeline
    let options: RequestOptions

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await pipeline.send(request, options: options)
    }
}
