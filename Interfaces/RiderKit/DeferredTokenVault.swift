import Foundation
import RiderDomain

/// A vault made on first use, for a binding known only then: with an issuer, a stored session is
/// bound to the token endpoint the provider's metadata names, which ``RiderKit/live(configuration:)``
/// (synchronous) cannot ask for. Every load and save goes to the one vault made.
actor DeferredTokenVault: TokenVault {
    nonisolated let location: String
    private let make: @Sendable () async throws -> any TokenVault
    private var making: Task<any TokenVault, any Error>?

    /// - Parameters:
    ///   - location: where sessions are kept, known before the vault is made.
    ///   - make: makes the vault; called until it succeeds once.
    init(location: String, make: @escaping @Sendable () async throws -> any TokenVault) {
        self.location = location
        self.make = make
    }

    /// The vault, made on the first call (concurrent first calls share it); a failure is not kept.
    func vault() async throws -> any TokenVault {
        if let making { return try await making.value }
        let task = Task { try await make() }
        making = task
        do {
            return try await task.value
        } catch {
            making = nil
            throw error
        }
    }

    func loadSession() async throws -> Session? { try await vault().loadSession() }
    func saveSession(_ session: Session) async throws { try await vault().saveSession(session) }
    func removeSession() async throws { try await vault().removeSession() }
}
