import Foundation
import RiderDomain

/// What an embedding program does when the session has expired for good (the refresh token was
/// rejected): typically show a login form, or send the person to the provider's page again.
/// RiderKit then runs the sign-in flow it returns (any ``SignInFlow``: a password, the browser, a
/// device code) and sends the request that ran into the expiry once more.
///
/// ```swift
/// let renewInBrowser = Reauthentication(signIn: { _ in .browser() })
/// ```
public struct Reauthentication: Sendable {
    /// What other requests do while the person is being asked.
    public enum WhileAsking: Hashable, Sendable {
        /// Wait for the answer, then go on with the new session.
        case wait
        /// Fail at once with `RiderError.awaitingAuthorization`.
        case failFast
    }

    /// What the program is told when it is asked for credentials.
    public struct Request: Hashable, Sendable {
        /// Whose session expired, when known.
        public var userID: UserID?
        /// That account's email, when the cache knows it (to prefill a form).
        public var email: String?
        /// 1 for the first question; more after wrong credentials.
        public var attempt: Int
        /// The scope a protected resource asked for when it refused a request for want of it
        /// (`insufficient_scope`): the session is valid, and the sign-in returned asks for this
        /// scope too. `nil` when the session expired.
        public var scope: String?

        /// - Parameters:
        ///   - userID: whose session it is, when known.
        ///   - email: that account's email, when known.
        ///   - attempt: 1 for the first question.
        ///   - scope: the scope asked for by a resource, for a step-up; `nil` for an expiry.
        public init(userID: UserID?, email: String?, attempt: Int, scope: String? = nil) {
            self.userID = userID
            self.email = email
            self.attempt = attempt
            self.scope = scope
        }
    }

    /// Returns the way to sign in again, or `nil` when the person declines (the request then
    /// fails with `RiderError.sessionExpired`). It must not send authorized requests through the
    /// same RiderKit: those wait for it (with ``WhileAsking/wait``) and would never finish.
    public typealias Handler = @Sendable (Request) async throws -> SignInFlow?

    /// What other requests do while the person is being asked.
    public var whileAsking: WhileAsking
    /// How many times a refused sign-in (`RiderError.invalidCredentials`) is asked again before
    /// that error is thrown.
    public var maximumAttempts: Int
    /// Asks the person; called once at a time, however many requests are waiting.
    public var handler: Handler
    /// The expired account's email when the session does not say it, to prefill the question
    /// (RiderKit asks its user cache).
    package var emailOfAccount: @Sendable (UserID) async -> String? = { _ in nil }

    /// Asks the handler about the expired session, and signs in with the flow it returns; asks
    /// again after a refused sign-in, up to ``maximumAttempts``.
    /// - Parameters:
    ///   - asked: told before each call of the handler.
    ///   - signIn: runs the flow and establishes its session.
    /// - Throws: ``RiderError/sessionExpired`` when the person declines,
    ///   ``RiderError/invalidCredentials`` after the last attempt, what the handler or the sign-in throws.
    func ask(about expired: Session, scope: String? = nil, asked: @Sendable () async -> Void,
             signIn: @Sendable (SignInFlow) async throws -> Session) async throws -> Session {
        let known = expired.identity?.email
        let email = known == nil ? await emailOfAccount(expired.userID) : known
        for attempt in 1...maximumAttempts {
            await asked()
            guard let flow = try await handler(Request(userID: expired.userID, email: email, attempt: attempt,
                                                       scope: scope)) else {
                throw RiderError.sessionExpired
            }
            do {
                return try await signIn(flow)
            } catch RiderError.Code.invalidCredentials where attempt < maximumAttempts {
                continue
            }
        }
        throw RiderError.invalidCredentials
    }

    /// - Parameters:
    ///   - whileAsking: ``WhileAsking/wait`` unless told.
    ///   - maximumAttempts: 3 unless told (at least 1).
    ///   - signIn: returns the flow to sign in again with; called once at a time, however many
    ///     requests are waiting.
    public init(whileAsking: WhileAsking = .wait, maximumAttempts: Int = 3, signIn: @escaping Handler) {
        self.whileAsking = whileAsking
        self.maximumAttempts = max(1, maximumAttempts)
        handler = signIn
    }

    /// Signs in again with the credentials `handler` returns (a password sign-in).
    /// - Parameters:
    ///   - whileAsking: ``WhileAsking/wait`` unless told.
    ///   - maximumAttempts: 3 unless told (at least 1).
    ///   - handler: asks the person for an email and password; `nil` when they decline.
    public init(whileAsking: WhileAsking = .wait, maximumAttempts: Int = 3,
                handler: @escaping @Sendable (Request) async throws -> Credentials?) {
        self.init(whileAsking: whileAsking, maximumAttempts: maximumAttempts) { request in
            try await handler(request).map(SignInFlow.password)
        }
    }
}
