import Foundation
import RiderDomain

/// Exchanges the refresh token for a new session now, even if the current one is still valid.
public struct RefreshSession: Sendable {
    let sessions: SessionEngine

    public init(sessions: SessionEngine) { self.sessions = sessions }

    /// - Returns: the renewed session, already stored.
    /// - Throws: `RiderError.notSignedIn`, `RiderError.sessionExpired` (the stored session is
    ///   then removed), a network error (the session is kept), `RiderError.storage(_:)`.
    public func callAsFunction() async throws -> Session {
        try await sessions.refresh()
    }
}
