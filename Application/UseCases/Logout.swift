import Foundation
import RiderDomain

/// Signs out: revokes the tokens on the server when it can, and always forgets them locally.
public struct Logout: Sendable {
    /// What happened on each side.
    public struct Outcome: Hashable, Sendable {
        /// `false` when nobody was signed in.
        public var wasSignedIn: Bool
        /// `false` when the server could not be told (offline) or refused; the local session is
        /// gone anyway.
        public var revokedOnServer: Bool
        /// Why the server was not told, when it was asked: its refusal (an HTTP `status` in
        /// 400–499, with the provider's error in `detail`), or the network error.
        public var revocationFailure: RiderError?

        public init(wasSignedIn: Bool, revokedOnServer: Bool) {
            self.wasSignedIn = wasSignedIn
            self.revokedOnServer = revokedOnServer
        }

        /// - Parameters:
        ///   - wasSignedIn: whether someone was signed in.
        ///   - revokedOnServer: whether the server revoked the session.
        ///   - revocationFailure: why it did not, when it was asked.
        public init(wasSignedIn: Bool, revokedOnServer: Bool, revocationFailure: RiderError?) {
            self.init(wasSignedIn: wasSignedIn, revokedOnServer: revokedOnServer)
            self.revocationFailure = revocationFailure
        }
    }

    let sessions: SessionEngine
    let cache: any UserCache
    let clearsCache: Bool

    /// - Parameters:
    ///   - sessions: ends the session and removes it from the vault; its `AuthorizationService`
    ///     revokes the tokens on the server.
    ///   - cache: the user cache emptied when `clearsCache` is `true`.
    ///   - clearsCache: whether logging out empties the user cache, so the next person
    ///     at this machine does not see what this one looked up; `true` unless told.
    package init(sessions: SessionEngine, cache: any UserCache, clearsCache: Bool = true) {
        self.sessions = sessions
        self.cache = cache
        self.clearsCache = clearsCache
    }

    /// - Throws: `RiderError.storage(_:)` when the local session cannot be removed, or when the
    ///   revocation endpoint configured now is not the one the session was issued with: then nothing
    ///   is sent and the session is kept, so that it can still be revoked where it belongs.
    @discardableResult
    public func callAsFunction() async throws -> Outcome {
        let stored: Session?
        do {
            stored = try await sessions.currentSession()
        } catch RiderError.Code.storage {
            // An unreadable vault entry cannot be revoked, but the user asked to be signed out:
            // removing it is what they want, and it is not silent.
            try await sessions.end()
            if clearsCache { try await cache.removeAll() }
            return Outcome(wasSignedIn: true, revokedOnServer: false)
        }
        guard let session = stored else {
            // The session may have expired in this process: signing out means nobody is to be
            // asked to sign in again for it.
            await sessions.forgetExpiredSession()
            return Outcome(wasSignedIn: false, revokedOnServer: false)
        }
        var revoked: Bool
        var failure: RiderError?
        do {
            revoked = try await sessions.service.revoke(session)
        } catch let refusal as RiderError where refusal.code == .storage {
            // The configuration names another server to revoke at than the session's own: telling
            // that one would hand it the tokens, and ending the session here without telling its
            // own server would leave them live there. Neither happens; the caller hears why.
            throw refusal
        } catch {
            // Being offline, refused (or cancelled) must not keep anyone signed in on this machine.
            revoked = false
            failure = error as? RiderError
        }
        try await sessions.end()
        // Cached users are derived data; the next person at this machine should not see them.
        if clearsCache { try await cache.removeAll() }
        return Outcome(wasSignedIn: true, revokedOnServer: revoked, revocationFailure: failure)
    }
}
