import Foundation
import RiderDomain

/// Runs ``Reauthentication`` once however many requests run into an expired session at the same
/// time, and holds the others back (or turns them away) until it is done.
///
/// Sits outside the session engine and uses only what it tells about the session (where it
/// stands, and ``Login`` to establish the new one), so the engine's single-flight refresh is
/// untouched.
package actor ReauthenticationGate {
    /// What a request was told when it was let through: how many questions had ended by then, so
    /// that it joins the outcome of a question that ended since instead of asking again.
    struct Admission: Sendable {
        fileprivate let questionsEnded: Int
    }

    private let reauthentication: Reauthentication
    private let sessions: SessionEngine
    private let login: Login
    private let cache: any UserCache
    private var asking: Task<Session, any Error>?
    /// Bumped in the same step as `asking` is cleared, after the question's session (if any) is
    /// established: a request can tell that a question ended since it was admitted.
    private var questionsEnded = 0

    /// How many times the handler was called (for diagnostics and tests).
    package private(set) var handlerCalls = 0

    /// - Parameters:
    ///   - reauthentication: the handler to ask, and how often.
    ///   - sessions: the engine whose expired session the new one replaces.
    ///   - login: signs in with the handler's credentials; it must not go through this gate.
    ///   - cache: where the expired account's email is looked up for the handler.
    package init(_ reauthentication: Reauthentication, sessions: SessionEngine, login: Login, cache: any UserCache) {
        self.reauthentication = reauthentication
        self.sessions = sessions
        self.login = login
        self.cache = cache
    }

    /// Call before sending an authorized request: returns at once unless the person is being
    /// asked, then waits for the answer or fails fast.
    /// - Returns: what ``sessionAfterExpiry(of:admission:)`` needs if the request meets an expiry.
    /// - Throws: ``RiderError/awaitingAuthorization`` with ``Reauthentication/WhileAsking/failFast``.
    func admit() async throws -> Admission {
        // Taken before waiting: the question waited for counts as one that ended since.
        let admission = Admission(questionsEnded: questionsEnded)
        guard let asking else { return admission }
        switch reauthentication.whileAsking {
        case .failFast: throw RiderError.awaitingAuthorization
        // Its failure belongs to the request that started it; this one just tries afterwards.
        case .wait: _ = try? await asking.value
        }
        return admission
    }

    /// The session to send a request again with, after it met the expiry of `failed`, the session
    /// it was made under (the one in place or the one already expired when it started).
    ///
    /// Every request that meets the same expiry gets the outcome of one question: the session
    /// already renewed, the question under way, or a new question if none ended since the request
    /// was admitted.
    /// - Throws: ``RiderError/sessionExpired`` when the person declines, signs in as someone else,
    ///   or a question since this request was admitted came to nothing; ``RiderError/notSignedIn``
    ///   when they signed out meanwhile; ``RiderError/invalidCredentials`` after the last attempt;
    ///   ``RiderError/awaitingAuthorization`` (fail-fast, while someone else is being asked); what
    ///   the handler or the login throws.
    func sessionAfterExpiry(of failed: Session, admission: Admission) async throws -> Session {
        let session = try await outcome(after: failed, admission: admission)
        // Another account's session must not carry on a request made for this one.
        guard session.userID == failed.userID else { throw RiderError.sessionExpired }
        return session
    }

    private func outcome(after failed: Session, admission: Admission) async throws -> Session {
        while true {
            let ended = questionsEnded
            let standing = try await sessions.standing()
            // A question ended while the engine was being asked: what it said may be stale.
            guard questionsEnded == ended else { continue }
            if case .signedIn(let current) = standing, current.accessToken != failed.accessToken {
                return current
            }
            if let asking {
                if reauthentication.whileAsking == .failFast { throw RiderError.awaitingAuthorization }
                return try await asking.value
            }
            // A sign-out is not an expiry: it stands.
            if case .signedOut = standing { throw RiderError.notSignedIn }
            // Asked since this request was admitted, and it came to nothing: do not ask again.
            guard questionsEnded == admission.questionsEnded else { throw RiderError.sessionExpired }
            let task = Task { try await self.ask(userID: failed.userID) }
            asking = task
            return try await task.value
        }
    }

    private func ask(userID: UserID) async throws -> Session {
        // Runs on this actor, so the waiters see the question end in one step, after its session
        // (if any) is established.
        defer {
            asking = nil
            questionsEnded += 1
        }
        let email = try? await cache.user(id: userID)?.value.email
        for attempt in 1...reauthentication.maximumAttempts {
            handlerCalls += 1
            let request = Reauthentication.Request(userID: userID, email: email, attempt: attempt)
            guard let credentials = try await reauthentication.handler(request) else { throw RiderError.sessionExpired }
            do {
                return try await login(credentials)
            } catch RiderError.invalidCredentials where attempt < reauthentication.maximumAttempts {
                continue
            }
        }
        throw RiderError.invalidCredentials
    }
}
