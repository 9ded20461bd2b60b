import Instrumentation
import RiderDomain
import Tracing

/// RiderKit's spans through swift-distributed-tracing: to the tracer the program bootstrapped
/// (`InstrumentationSystem.bootstrap`, once per process — swift-otel's, say) or bound to the task
/// (`withTracer`), resolved at each span, so a tracer bound later still sees them. With neither,
/// nothing is allocated and nothing is recorded.
///
/// A failure is recorded as the span's error status with `error.type` (a `RiderError` code), never
/// with the error's text, which exporters would otherwise copy into the trace.
package struct SwiftDistributedTracingTracer: SpanTracer {
    package init() {}

    /// Whether a tracer (or any instrument) is bootstrapped or bound to this task: one task-local
    /// read and one lock, far less than resolving the tracer itself.
    package var isRecording: Bool { !(InstrumentationSystem.instrument is NoOpInstrument) }

    package func withSpan<T>(_ name: String, kind: RiderDomain.SpanKind,
                            _ operation: (any TraceSpan) async throws -> T) async rethrows -> T {
        guard isRecording, !(InstrumentationSystem.tracer is NoOpTracer) else { return try await operation(Unrecorded()) }
        let span = startSpan(name, ofKind: kind == .client ? .client : .internal)
        defer { span.end() }
        let recorded = Recorded(span: span)
        do {
            return try await InstrumentationContext.withValue(span.context) { try await operation(recorded) }
        } catch {
            recorded.fail(Self.kind(of: error))
            throw error
        }
    }

    package func inject(into headers: inout RiderDomain.HTTPHeaders) {
        guard let context = InstrumentationContext.current else { return }
        InstrumentationSystem.instrument.inject(context, into: &headers, using: HeadersInjector())
    }

    /// What a failure is called on a span: the `RiderError` code, or the error's type.
    static func kind(of error: any Error) -> String {
        if let error = error as? RiderError { return error.code.description }
        if error is CancellationError { return "cancelled" }
        return String(describing: type(of: error))
    }

    private struct Recorded: TraceSpan {
        let span: any Span

        func setAttribute(_ key: String, _ value: RiderDomain.SpanAttribute) {
            switch value {
            case .string(let text): span.attributes[key] = text
            case .int(let number): span.attributes[key] = Int64(number)
            case .bool(let flag): span.attributes[key] = flag
            }
        }

        func fail(_ kind: String) {
            span.attributes["error.type"] = kind
            span.setStatus(SpanStatus(code: .error))
        }
    }

    private struct Unrecorded: TraceSpan {
        func setAttribute(_ key: String, _ value: RiderDomain.SpanAttribute) {}
        func fail(_ kind: String) {}
    }

    private struct HeadersInjector: Injector {
        func inject(_ value: String, forKey key: String, into headers: inout RiderDomain.HTTPHeaders) {
            headers[key] = value
        }
    }
}
