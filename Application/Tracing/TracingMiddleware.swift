import Foundation
import RiderDomain

/// A client span around each request, outside the retries: `HTTP GET /users/{id}` with the
/// method, the route template, the server, the final status and how many times the request went
/// on the wire; and the W3C `traceparent` of that span on every attempt, when a tracer is bound.
///
/// The route template is the path with identifiers replaced by `{id}`, never the query (which may
/// hold what a person searched for) and never a header, so no token can reach an attribute.
package struct TracingMiddleware: HTTPMiddleware {
    private let tracer: any SpanTracer

    package init(tracer: any SpanTracer) {
        self.tracer = tracer
    }

    package func intercept(_ request: HTTPRequest, options: RequestOptions,
                           next: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
        guard tracer.isRecording else { return try await next(request) }
        let route = Self.routeTemplate(of: request.url)
        return try await tracer.withSpan("HTTP \(request.method.rawValue) \(route)", kind: .client) { span in
            span.setAttribute("http.request.method", .string(request.method.rawValue))
            span.setAttribute("url.template", .string(route))
            if let host = request.url.host { span.setAttribute("server.address", .string(host)) }
            if let port = request.url.port { span.setAttribute("server.port", .int(port)) }
            var traced = request
            tracer.inject(into: &traced.headers)
            let attempts = AttemptCounter()
            defer {
                span.setAttribute("rider.attempts", .int(attempts.count))
                span.setAttribute("http.request.resend_count", .int(max(0, attempts.count - 1)))
            }
            let response = try await AttemptCounter.$current.withValue(attempts) { try await next(traced) }
            span.setAttribute("http.response.status_code", .int(response.status))
            if response.status >= 500 { span.fail(String(response.status)) }
            return response
        }
    }

    /// The path with every segment that names one thing (digits, `u_000042`, a UUID, a long
    /// token-like string) replaced by `{id}`.
    package static func routeTemplate(of url: URL) -> String {
        let segments = url.path.split(separator: "/", omittingEmptySubsequences: false).map { segment -> Substring in
            isIdentifier(segment) ? "{id}" : segment
        }
        let path = segments.joined(separator: "/")
        return path.isEmpty ? "/" : path
    }

    private static func isIdentifier(_ segment: Substring) -> Bool {
        guard !segment.isEmpty else { return false }
        if segment.allSatisfy(\.isNumber) { return true }
        if let underscore = segment.firstIndex(of: "_"), segment[segment.index(after: underscore)...].allSatisfy(\.isNumber),
           segment.index(after: underscore) < segment.endIndex {
            return true
        }
        if UUID(uuidString: String(segment)) != nil { return true }
        // A long run with digits is a key, a hash or a code, not a word of a route.
        return segment.count >= 16 && segment.contains(where: \.isNumber)
    }
}

/// Counts the attempts a request makes on the wire (retries, the resend after a 401, redirects),
/// for the span around it: the last step before the transport counts.
package struct AttemptCountingMiddleware: HTTPMiddleware {
    package init() {}

    package func intercept(_ request: HTTPRequest, options: RequestOptions,
                           next: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
        if let counter = AttemptCounter.current { counter.increment() }
        return try await next(request)
    }
}

/// How many attempts the request under the current span made.
final class AttemptCounter: @unchecked Sendable {
    @TaskLocal static var current: AttemptCounter?
    private let lock = NSLock()
    private var value = 0

    var count: Int { lock.withLock { value } }
    func increment() { lock.withLock { value += 1 } }
}
