import Foundation
import RiderDomain

/// A span around each vault operation (`rider.vault.load`, `.save`, `.remove`), with whether a
/// session was found; the session itself never reaches an attribute.
package struct TracingTokenVault: TokenVault {
    private let base: any TokenVault
    private let tracer: any SpanTracer

    package init(base: any TokenVault, tracer: any SpanTracer) {
        self.base = base
        self.tracer = tracer
    }

    package var location: String { base.location }

    package func loadSession() async throws -> Session? {
        try await traced("rider.vault.load", kind: .internal) { span in
            let session = try await base.loadSession()
            span.setAttribute("rider.vault.found", .bool(session != nil))
            return session
        }
    }

    package func saveSession(_ session: Session) async throws {
        try await traced("rider.vault.save", kind: .internal) { _ in try await base.saveSession(session) }
    }

    package func removeSession() async throws {
        try await traced("rider.vault.remove", kind: .internal) { _ in try await base.removeSession() }
    }

    /// `operation` in a span when a tracer records; straight through otherwise.
    private func traced<T>(_ name: String, kind: SpanKind, _ operation: (any TraceSpan) async throws -> T)
        async rethrows -> T
    {
        guard tracer.isRecording else { return try await operation(Untraced()) }
        return try await tracer.withSpan(name, kind: kind, operation)
    }
}

/// The span of an operation nobody records.
private struct Untraced: TraceSpan {
    func setAttribute(_ key: String, _ value: SpanAttribute) {}
    func fail(_ kind: String) {}
}
