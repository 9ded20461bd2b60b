import RiderDomain

/// A vault that only remembers; the sanitizer checks the engine, not storage.
actor MemoryVault: TokenVault {
    private var session: Session?

    init(_ session: Session?) { self.session = session }

    nonisolated var location: String { "memory" }
    func loadSession() async throws -> Session? { session }
    func saveSession(_ session: Session) async throws { self.session = session }
    func removeSession() async throws { session = nil }
}
