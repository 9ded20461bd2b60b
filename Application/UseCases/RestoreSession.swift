import Foundation
import RiderDomain

/// Reads the stored session, if any, without contacting the server.
public struct RestoreSession: Sendable {
    let sessions: SessionEngine

    public init(sessions: SessionEngine) { self.sessions = sessions }

    /// - Returns: the stored session or `nil` when nobody is signed in.
    /// - Throws: `RiderError.storage(_:)` when the vault cannot be read.
    public func callAsFunction() async throws -> Session? {
        try await sessions.currentSession()
    }
}
