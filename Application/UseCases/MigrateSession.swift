import Foundation
import RiderDomain

/// Moves the stored session from one vault to another without losing it: write to the
/// destination, read it back and compare, and only then remove it from the source.
public struct MigrateSession: Sendable {
    let source: any TokenVault
    let destination: any TokenVault

    /// - Parameters:
    ///   - source: where the session is now.
    ///   - destination: where it should be.
    public init(from source: any TokenVault, to destination: any TokenVault) {
        self.source = source
        self.destination = destination
    }

    /// - Returns: whether there was a session to move.
    /// - Throws: `RiderError.storage(_:)` from either vault; whatever fails, the session is still
    ///   in the source (and possibly also in the destination).
    @discardableResult
    public func callAsFunction() async throws -> Bool {
        guard let session = try await source.loadSession() else { return false }
        try await destination.saveSession(session)
        guard try await destination.loadSession() == session else {
            throw RiderError.storage("the session read back from \(destination.location) differs from the one "
                + "written; it was kept in \(source.location)")
        }
        try await source.removeSession()
        return true
    }
}
