import Foundation
import RiderDomain

/// Where the session stands and what happens next, as one value: events go in, the actions the
/// session engine must perform come out. No I/O, no clock, no tasks — the engine holds those —
/// so every interleaving `docs/session.md` describes is a synchronous table test
/// (`SessionMachineTests`). Built the way async-http-client keeps its connection state machines.
///
/// Two counters tell a late event from a current one. ``generation`` is bumped when the session
/// is replaced or ended from outside a refresh, so a refresh under way then cannot bring the old
/// session back. ``questionsEnded`` is bumped when a re-authentication question ends, so a
/// request that was admitted before it joins its outcome instead of asking again.
package struct SessionMachine: Sendable {
    package enum State: Sendable {
        /// The vault has not been read yet.
        case unloaded
        /// This session is in place.
        case signedIn(Session)
        /// This session is being renewed by one refresh, which ``SessionMachine/refreshWaiters``
        /// other callers joined. It is still sent while it has not expired; the refresh may replace it (another process
        /// renewed it first, or the server answered) before it ends.
        case refreshing(Session)
        /// This session expired for good (its refresh was rejected). Kept until the next sign-in
        /// or sign-out, and entered in the same step that ends the session, so "no session" never
        /// means "never signed in" for a moment after an expiry: a request starting then meets
        /// ``RiderError/sessionExpired`` like the one that found it, and a re-authentication takes
        /// them all along in its one question.
        case expired(Session)
        /// The person is being asked to sign in again after `expired` ended.
        case reauthenticating(expired: Session)
        /// Nobody signed in, or they signed out, and why.
        case signedOut(SessionState.SignOutReason)

        /// The session in place, being renewed or expired; `nil` when signed out or not loaded.
        package var session: Session? {
            switch self {
            case .signedIn(let session), .refreshing(let session), .expired(let session),
                 .reauthenticating(let session): session
            case .unloaded, .signedOut: nil
            }
        }

        /// The session requests may be sent with: in place or being renewed.
        package var usable: Session? {
            switch self {
            case .signedIn(let session), .refreshing(let session): session
            default: nil
            }
        }

        /// What observers are told (``SessionState``); `nil` before the vault was read.
        package var published: SessionState? {
            switch self {
            case .unloaded: nil
            case .signedIn(let session): .signedIn(userID: session.userID, expiresAt: session.expiresAt)
            case .refreshing(let session): .refreshing(userID: session.userID)
            case .expired, .reauthenticating: .signedOut(reason: .sessionExpired)
            case .signedOut(let reason): .signedOut(reason: reason)
            }
        }
    }

    package private(set) var state: State = .unloaded
    package private(set) var generation = 0
    package private(set) var questionsEnded = 0
    /// How many refresh requests were sent and how many times the person was asked (diagnostics).
    package private(set) var refreshesSent = 0
    package private(set) var questionsAsked = 0
    /// How many callers joined the refresh under way, or the last one (an attribute of its span).
    package private(set) var refreshWaiters = 0
    private var loopGuard = RefreshLoopGuard()

    package init() {}

    // MARK: - Loading, signing in and out

    /// The vault was read: what it held becomes the session, unless something else happened
    /// while it was read.
    package mutating func loaded(_ stored: Session?) {
        guard case .unloaded = state else { return }
        state = stored.map(State.signedIn) ?? .signedOut(.noSession)
    }

    /// A sign-in stored `session`: it replaces whatever was there, and a refresh or question under
    /// way cannot bring the old one back.
    package mutating func signedIn(_ session: Session) {
        generation += 1
        state = .signedIn(session)
    }

    /// The person signed out here.
    package mutating func signedOut() {
        generation += 1
        state = .signedOut(.loggedOut)
    }

    /// A logout found the session already expired: later requests are ``RiderError/notSignedIn``
    /// and nobody is asked to sign in again.
    package mutating func forgetExpiry() {
        guard case .expired = state else { return }
        state = .signedOut(.loggedOut)
    }

    /// Whether `session` is due for a refresh: it can be renewed, and its token expires within
    /// `leeway` (at most half its lifetime, so a short-lived token is not refreshed at once),
    /// shortened by `jitter` of itself. A client's own session can be: it asks for new tokens as
    /// the client.
    ///
    /// `jitter` (0 up to 0.5) moves the moment to a point in the leeway's first half, so that many
    /// processes and instances of one account, signed in or refreshed together, do not all
    /// refresh at the same instant: each engine draws its own.
    package static func needsRefresh(_ session: Session, at now: Date, leeway: TimeInterval,
                                     jitter: Double = 0) -> Bool {
        guard session.refreshToken != nil || session.isClientSession else { return false }
        let lifetime = session.expiresAt.map { $0.timeIntervalSince(session.issuedAt) } ?? 0
        let capped = max(0, min(leeway, lifetime / 2))
        return session.isExpired(at: now, leeway: capped * (1 - min(max(jitter, 0), 0.5)))
    }

    /// What a call needing a session throws when there is none.
    package var noSessionError: RiderError {
        switch state {
        case .expired, .reauthenticating: .sessionExpired
        default: .notSignedIn
        }
    }

    // MARK: - Refreshing

    package enum RefreshDecision: Equatable {
        /// Join the refresh under way.
        case join
        /// Start one for this session, in this generation.
        case start(Session, generation: Int)
        /// Use this session: the rejected token was replaced already.
        case use(Session)
        case fail(RiderError)
    }

    /// A caller wants the session renewed: because the server rejected `rejectedAccessToken`
    /// with 401, or (`nil`) because it is about to expire or was asked to.
    package mutating func refreshWanted(rejecting rejectedAccessToken: String?, at now: Date) -> RefreshDecision {
        switch state {
        case .refreshing:
            refreshWaiters += 1
            return .join
        case .signedIn(let current):
            if let rejectedAccessToken, current.accessToken != rejectedAccessToken { return .use(current) }
            // Nothing to renew it with (a token given by hand): it stays in use until the server
            // refuses it, rather than being ended by a renewal nobody can make.
            if rejectedAccessToken == nil, current.refreshToken == nil, !current.isClientSession {
                return .fail(.cannotRenew)
            }
            if rejectedAccessToken != nil, !loopGuard.admit(at: now) {
                return .fail(.server(status: 401, detail: "the server keeps rejecting freshly refreshed tokens; "
                                     + "RiderKit stopped refreshing for \(Int(loopGuard.window)) s"))
            }
            state = .refreshing(current)
            refreshWaiters = 0
            return .start(current, generation: generation)
        default:
            // A request that was sent with a token had a session a moment ago: it ended meanwhile.
            return .fail(rejectedAccessToken == nil ? noSessionError : .sessionExpired)
        }
    }

    /// What the refresh of `generation` learns on its way, under the cross-process lock.
    package enum RefreshEvent: Equatable {
        /// The vault holds this (another process may have renewed it or signed out meanwhile).
        case stored(Session?)
        /// The token endpoint renewed the session.
        case renewed(Session)
        /// The refresh token was rejected (or there is none, or the answer was refused).
        case rejected
        /// The rejected session's vault entry is gone.
        case removed
    }

    package enum RefreshAction: Equatable {
        /// Send the refresh token to the token endpoint.
        case send(refreshToken: String)
        /// Ask the token endpoint for new tokens as the client (a client session has no refresh
        /// token: RFC 6749 §4.4.3).
        case reissue
        /// Use this session: another process renewed it.
        case adopt(Session)
        /// Keep this renewed session in the vault; it is in place in memory already.
        case save(Session)
        /// Remove the vault entry of the rejected session.
        case remove
        /// Nothing more to do: the session expired (or was replaced or ended meanwhile).
        case expire
    }

    package mutating func refresh(of generation: Int, _ event: RefreshEvent) -> RefreshAction {
        guard generation == self.generation, case .refreshing(let current) = state else {
            // Signed out or signed in anew while the refresh was under way: that decision stands.
            return .expire
        }
        switch event {
        case .stored(let stored):
            guard let stored, stored.userID == current.userID else {
                // Nothing to remove: the vault already holds no session of this user.
                state = .expired(current)
                return .expire
            }
            if stored.accessToken != current.accessToken, stored.issuedAt >= current.issuedAt {
                state = .refreshing(stored)
                return .adopt(stored)
            }
            guard let refreshToken = current.refreshToken else {
                guard current.isClientSession else { return .remove }
                refreshesSent += 1
                return .reissue
            }
            refreshesSent += 1
            return .send(refreshToken: refreshToken)
        case .renewed(let renewed):
            // The old refresh token is spent on the server now: the new session is kept in memory
            // whatever happens, and persisted before any waiter proceeds.
            state = .refreshing(renewed)
            return .save(renewed)
        case .rejected:
            // The vault entry goes first, while the session is still held and this refresh still
            // under way: a request meanwhile sends the dead token, gets 401 and joins this refresh,
            // so it learns of the expiry from here. Only once the entry is gone can a
            // re-authentication start, so the removal cannot delete the session it establishes.
            return .remove
        case .removed:
            state = .expired(current)
            return .expire
        }
    }

    /// The refresh of `generation` ended, and its waiters are about to hear how. After a failure
    /// that did not end the session (the network), the session stays in place.
    package mutating func refreshEnded(_ generation: Int) {
        guard generation == self.generation, case .refreshing(let session) = state else { return }
        state = .signedIn(session)
    }

    // MARK: - Asking the person again

    /// What a request was told when it was let through: how many questions had ended by then.
    package struct Admission: Sendable, Equatable {
        package let questionsEnded: Int
    }

    /// A request is about to be sent: whether someone is being asked (it waits or fails fast).
    package func admit() -> (admission: Admission, asking: Bool) {
        let asking = if case .reauthenticating = state { true } else { false }
        return (Admission(questionsEnded: questionsEnded), asking)
    }

    package enum QuestionDecision: Equatable {
        /// Send the request again with this session.
        case use(Session)
        /// Wait for the question under way.
        case join
        /// Ask the person now, about this session.
        case ask(Session)
        case fail(RiderError)
    }

    /// A request admitted with `admission` met the expiry of `failed`, the session it was made
    /// under: every request that meets the same expiry gets the outcome of one question.
    package mutating func questionWanted(after failed: Session, admission: Admission, failsFast: Bool) -> QuestionDecision {
        if let current = state.usable, current.accessToken != failed.accessToken { return .use(current) }
        switch state {
        case .reauthenticating:
            return failsFast ? .fail(.awaitingAuthorization) : .join
        // A sign-out is not an expiry: it stands.
        case .signedOut, .unloaded:
            return .fail(.notSignedIn)
        default:
            // Asked since this request was admitted, and it came to nothing: do not ask again.
            guard questionsEnded == admission.questionsEnded else { return .fail(.sessionExpired) }
            state = .reauthenticating(expired: state.session ?? failed)
            return .ask(failed)
        }
    }

    /// The handler is called once more.
    package mutating func asked() {
        questionsAsked += 1
    }

    /// The question ended, after its session (if any) was established: without one, the session
    /// stays expired.
    package mutating func questionEnded() {
        questionsEnded += 1
        if case .reauthenticating(let expired) = state { state = .expired(expired) }
    }
}
