import Foundation
import RiderDomain

/// Keeps the session for the life of the process only ("don't keep me signed in"), and
/// stands in for a real vault in tests of the layers above.
public actor InMemoryTokenVault: TokenVault {
    private var session: Session?

    public init(session: Session? = nil) { self.session = session }

    public nonisolated var location: String { "memory (this process only)" }

    public func loadSession() async throws -> Session? { session }
    public func saveSession(_ session: Session) async throws { self.session = session }
    public func removeSession() async throws { session = nil }
}
