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
        try await tracer.withSpan("rider.vault.load", kind: .internal) { span in
            let session = try await base.loadSession()
            span.setAttribute("rider.vault.found", .bool(session != nil))
            return session
        }
    }

    package func saveSession(_ session: Session) async throws {
        try await tracer.withSpan("rider.vault.save", kind: .internal) { _ in try await base.saveSession(session) }
    }

    package func removeSession() async throws {
        try await tracer.withSpan("rider.vault.remove", kind: .internal) { _ in try await base.removeSession() }
    }
}
