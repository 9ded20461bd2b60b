import Foundation

/// Where RiderKit's spans go: one for each HTTP request, each session refresh, and each vault and
/// cache operation, nested as the work is (a refresh inside the request that met the 401).
///
/// The adapter over swift-distributed-tracing (`SwiftDistributedTracingTracer`) hands them to
/// whatever tracer the program bootstrapped (`InstrumentationSystem.bootstrap`, or `withTracer`
/// for a task), swift-otel's OTLP exporter for instance, and is a no-op when there is none.
///
/// Attributes never hold a token, a password, a query string or what a person searched for.
package protocol SpanTracer: Sendable {
    /// Whether spans started now would be recorded: when not, callers skip the work of making
    /// them (a request's attributes, its trace header).
    var isRecording: Bool { get }

    /// Runs `operation` inside a span named `name`; spans started inside it are its children.
    /// An error `operation` throws is recorded on the span (its kind only) and rethrown.
    func withSpan<T>(_ name: String, kind: SpanKind, _ operation: (any TraceSpan) async throws -> T) async rethrows -> T

    /// Adds the current span's context to an outgoing request (W3C `traceparent`, `tracestate`)
    /// when a tracer is bound; leaves `headers` as they are otherwise.
    func inject(into headers: inout HTTPHeaders)
}

/// The span an operation runs in.
package protocol TraceSpan: Sendable {
    /// Sets one attribute (OpenTelemetry names where one exists: `http.request.method`,
    /// `url.template`, `http.response.status_code`).
    func setAttribute(_ key: String, _ value: SpanAttribute)
    /// Marks the span failed, naming the kind of failure (a `RiderError` code, never its text).
    func fail(_ kind: String)
}

/// An attribute's value.
package enum SpanAttribute: Sendable, Hashable {
    case string(String)
    case int(Int)
    case bool(Bool)
}

/// What a span stands for, as OpenTelemetry has it.
package enum SpanKind: Sendable, Hashable {
    /// A request to a server.
    case client
    /// Work inside the process (a refresh, a cache lookup).
    case `internal`
}

/// Traces nothing: for programs and tests that ask for no spans.
package struct NoSpanTracer: SpanTracer {
    package init() {}

    package var isRecording: Bool { false }

    package func withSpan<T>(_ name: String, kind: SpanKind, _ operation: (any TraceSpan) async throws -> T)
        async rethrows -> T
    {
        try await operation(NoSpan())
    }

    package func inject(into headers: inout HTTPHeaders) {}

    private struct NoSpan: TraceSpan {
        func setAttribute(_ key: String, _ value: SpanAttribute) {}
        func fail(_ kind: String) {}
    }
}
