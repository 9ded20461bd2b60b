import Foundation
import RiderDomain

/// Runs ``Reauthentication`` once however many requests run into an expired session at the same
/// time, and holds the others back (or turns them away) until it is done.
///
/// Sits outside the session engine and uses only its public surface (`currentSession()`, and
/// ``Login`` to establish the new session), so the engine's single-flight refresh is untouched.
public actor ReauthenticationGate {
    private let reauthentication: Reauthentication
    private let sessions: SessionEngine
    private let login: Login
    private let cache: any UserCache
    private var asking: Task<Session, any Error>?

    /// How many times the handler was called (for diagnostics and tests).
    public private(set) var handlerCalls = 0
    /// Bumped whenever asking starts, so a request can tell that an expiry was handled meanwhile.
    private(set) var epoch = 0

    /// - Parameters:
    ///   - login: signs in with the handler's credentials; it must not go through this gate.
    ///   - cache: where the expired account's email is looked up for the handler.
    public init(_ reauthentication: Reauthentication, sessions: SessionEngine, login: Login, cache: any UserCache) {
        self.reauthentication = reauthentication
        self.sessions = sessions
        self.login = login
        self.cache = cache
    }

    /// Call before sending an authorized request: returns at once unless the person is being
    /// asked, then waits for the answer or fails fast.
    /// - Throws: ``RiderError/awaitingAuthorization`` with ``Reauthentication/WhileAsking/failFast``.
    func admit() async throws {
        guard let asking else { return }
        switch reauthentication.whileAsking {
        case .failFast: throw RiderError.awaitingAuthorization
        // Its failure belongs to the request that started it; this one just tries afterwards.
        case .wait: _ = try? await asking.value
        }
    }

    /// A session to retry with after a request sent with `failedToken` found the session expired.
    ///
    /// If a newer session already replaced that token (someone else re-authenticated), returns it
    /// without asking; otherwise asks once, joining a question already under way.
    /// - Parameters:
    ///   - failedToken: the access token in place when the request was sent (`nil` if none).
    ///   - userID: whose session that was.
    ///   - mayAsk: `false` only joins a question under way or reuses its session; the caller's
    ///     own error stands otherwise.
    /// - Returns: the session to retry with, or `nil` when `mayAsk` is `false` and there is none.
    /// - Throws: ``RiderError/sessionExpired`` when the person declines or signs in as someone
    ///   else, ``RiderError/invalidCredentials`` after the last attempt, ``RiderError/awaitingAuthorization``
    ///   (fail-fast, while someone else is being asked), what the handler or the login throws.
    func reauthenticate(after failedToken: String?, userID: UserID?, mayAsk: Bool = true) async throws -> Session? {
        if let current = try? await sessions.currentSession(), current.accessToken != failedToken {
            return current
        }
        if let asking {
            if reauthentication.whileAsking == .failFast { throw RiderError.awaitingAuthorization }
            return try await asking.value
        }
        guard mayAsk else { return nil }
        epoch += 1
        let task = Task { try await self.ask(userID: userID) }
        asking = task
        defer { asking = nil }
        let session = try await task.value
        // Another account's session must not carry on a request made for this one.
        if let userID, session.userID != userID { throw RiderError.sessionExpired }
        return session
    }

    private func ask(userID: UserID?) async throws -> Session {
        var email: String?
        if let userID { email = try? await cache.user(id: userID)?.value.email }
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
