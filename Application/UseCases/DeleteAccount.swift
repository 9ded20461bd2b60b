import Foundation
import RiderDomain

/// Deletes the signed-in account on the server and everything this machine kept for it.
///
/// Irreversible: programs ask the person to confirm first (the CLI wants the email typed, or
/// `--yes`). On success the session is revoked, the vault entry is removed and the user cache —
/// filled under this account — is emptied, so no token and no cached user of it remain here.
public struct DeleteAccount: Sendable {
    /// What was deleted.
    public struct Outcome: Hashable, Sendable {
        /// The account that no longer exists.
        public var userID: UserID
        /// `false` when the server said the account was already gone (it was still forgotten here).
        public var deletedNow: Bool

        public init(userID: UserID, deletedNow: Bool) {
            self.userID = userID
            self.deletedNow = deletedNow
        }
    }

    let api: APIClient
    let sessions: SessionEngine
    let cache: any UserCache

    package init(api: APIClient, sessions: SessionEngine, cache: any UserCache) {
        self.api = api
        self.sessions = sessions
        self.cache = cache
    }

    /// - Returns: whose account was deleted.
    /// - Throws: `RiderError.notSignedIn`, `RiderError.sessionExpired` (log in again, then
    ///   retry), network errors — in each case nothing was deleted and the session is kept —
    ///   or `RiderError.storage(_:)` when the account is gone but the local data could not be
    ///   erased.
    @discardableResult
    public func callAsFunction() async throws -> Outcome {
        // An expired session still names the account: the request then meets the expiry (and a
        // re-authentication, when there is one) instead of ending here as "not signed in".
        guard let session = try await sessions.standing().session else { throw RiderError.notSignedIn }
        var deletedNow = true
        do {
            try await api.send(API.deleteMyAccount)
        } catch RiderError.Code.notFound {
            // Deleted already (another device, a retry after a lost answer): finish the job here.
            deletedNow = false
        }
        // The server ends every grant of a deleted account; revoking as well covers servers that
        // do not, and costs nothing when the tokens are already gone.
        let renewed = (try? await sessions.currentSession()) ?? session
        try? await sessions.service.revoke(renewed)
        try await sessions.end()
        try await cache.removeAll()
        return Outcome(userID: session.userID, deletedNow: deletedNow)
    }
}
