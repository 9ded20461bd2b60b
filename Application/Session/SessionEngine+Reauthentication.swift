import Foundation
import RiderDomain

/// Signing in again when the session is over (docs/session.md, "Signing in again when the session
/// is over"): the re-authentication question, the engine's second single flight beside the
/// refresh, and the step-up for a scope a resource asks for. Both run on the engine's actor, so
/// the machine sees a question begin and end in the same steps as the session it brings.
extension SessionEngine {
    /// Asks `reauthentication` from now on when the session has expired for good (tests build
    /// the engine first and decide this afterwards; RiderKit passes it to ``init``).
    package func reauthenticate(with reauthentication: Reauthentication?) {
        self.reauthentication = reauthentication
    }

    /// Call before sending an authorized request: returns at once unless the person is being
    /// asked, then waits for the answer or fails fast.
    /// - Returns: what ``sessionAfterExpiry(of:admission:)`` needs if the request meets an expiry.
    /// - Throws: ``RiderError/awaitingAuthorization`` with ``Reauthentication/WhileAsking/failFast``.
    package func admit() async throws -> SessionMachine.Admission {
        // Taken before waiting: the question waited for counts as one that ended since.
        let (admission, isAsking) = machine.admit()
        guard isAsking, let asking, let reauthentication else { return admission }
        if reauthentication.whileAsking == .failFast { throw RiderError.awaitingAuthorization }
        // Its failure belongs to the request that started it; this one just tries afterwards.
        _ = try? await asking.value
        return admission
    }

    /// The session to send a request again with, after it met the expiry of `failed`, the session
    /// it was made under. Every request that meets the same expiry gets the outcome of one
    /// question (see ``SessionMachine/questionWanted(after:admission:failsFast:)``).
    /// - Throws: ``RiderError/sessionExpired`` without a ``Reauthentication``, when the person
    ///   declines, signs in as someone else, or a question since this request was admitted came to
    ///   nothing; ``RiderError/notSignedIn`` when they signed out meanwhile;
    ///   ``RiderError/invalidCredentials`` after the last attempt; ``RiderError/awaitingAuthorization``
    ///   (fail-fast, while someone else is being asked); what the handler or the sign-in throws.
    package func sessionAfterExpiry(of failed: Session, admission: SessionMachine.Admission) async throws -> Session {
        guard let reauthentication else { throw RiderError.sessionExpired }
        var ended: Int
        repeat {
            ended = machine.questionsEnded
            _ = try await standing()
        } while machine.questionsEnded != ended  // a question ended while the vault was read
        let decision = machine.questionWanted(after: failed, admission: admission,
                                              failsFast: reauthentication.whileAsking == .failFast)
        let session: Session
        switch decision {
        case .use(let current): session = current
        case .fail(let error): throw error
        case .join:
            guard let asking else { throw RiderError.sessionExpired }
            session = try await asking.value
        case .ask(let expired):
            let task = Task { try await self.ask(about: expired, reauthentication) }
            asking = task
            session = try await task.value
        }
        // Another account's session must not carry on a request made for this one.
        guard session.userID == failed.userID else { throw RiderError.sessionExpired }
        return session
    }

    private func ask(about expired: Session, _ reauthentication: Reauthentication) async throws -> Session {
        // Runs on this actor, so the waiters see the question end in one step, after its session
        // (if any) is established.
        defer {
            asking = nil
            machine.questionEnded()
        }
        return try await reauthentication.ask(about: expired, asked: { await self.noteQuestion() },
                                              signIn: { try await self.signIn($0) })
    }

    /// Whether a ``Reauthentication`` is configured: someone to ask for a step-up.
    package var asksForStepUp: Bool { reauthentication != nil }

    /// Signs in again asking for `scope` as well, after a protected resource refused a request
    /// made with `failed` for want of it (RFC 6750 §3.1 `insufficient_scope`): the
    /// ``Reauthentication`` is asked, told the scope (``Reauthentication/Request/scope``), and the
    /// sign-in it returns asks for the scope configured (or the resource's) and `scope` together.
    /// Concurrent requests refused for the same scope share one sign-in.
    /// - Returns: the new session, already established.
    /// - Throws: the insufficient-scope refusal when there is no ``Reauthentication`` or the
    ///   person declines; what the sign-in throws; `RiderError.sessionExpired` when they signed
    ///   in as someone else.
    package func stepUp(to scope: String, from failed: Session) async throws -> Session {
        guard let reauthentication else { throw RiderError.insufficientScope(scope) }
        let task: Task<Session, any Error>
        if let (asked, running) = steppingUp, asked == scope {
            task = running
        } else {
            task = Task {
                try await AuthorizationServer.$stepUpScope.withValue(scope) {
                    do {
                        return try await reauthentication.ask(about: failed, scope: scope, asked: {},
                                                              signIn: { try await self.signIn($0) })
                    } catch RiderError.Code.sessionExpired {
                        // Declined: the request stays refused for its scope, which is what to say.
                        throw RiderError.insufficientScope(scope)
                    }
                }
            }
            steppingUp = (scope, task)
        }
        // Only this sign-in's own entry: one for another scope may have started meanwhile.
        defer { if steppingUp?.task == task { steppingUp = nil } }
        // Every request that waited on it, not only the one that started it, carries on only as
        // the account it was made for.
        let session = try await task.value
        guard session.userID == failed.userID else { throw RiderError.sessionExpired }
        return session
    }

    private func noteQuestion() {
        machine.asked()
    }

    /// How many times the re-authentication handler was called (for diagnostics and tests).
    package var handlerCalls: Int { machine.questionsAsked }
}
