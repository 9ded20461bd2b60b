import Foundation
import RiderDomain

/// What an embedding program does when the session has expired for good (the refresh token was
/// rejected): typically show a login form. RiderKit then signs in with what it returns and sends
/// the request that ran into the expiry once more.
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

        public init(userID: UserID?, email: String?, attempt: Int) {
            self.userID = userID
            self.email = email
            self.attempt = attempt
        }
    }

    /// Returns the credentials to sign in with, or `nil` when the person declines (the request
    /// then fails with `RiderError.sessionExpired`). It must not send authorized requests through
    /// the same RiderKit: those wait for it (with ``WhileAsking/wait``) and would never finish.
    public typealias Handler = @Sendable (Request) async throws -> Credentials?

    public var whileAsking: WhileAsking
    /// How many times wrong credentials are asked again before `RiderError.invalidCredentials` is thrown.
    public var maximumAttempts: Int
    public var handler: Handler

    /// - Parameters:
    ///   - whileAsking: ``WhileAsking/wait`` unless told.
    ///   - maximumAttempts: 3 unless told (at least 1).
    ///   - handler: asks the person; called once at a time, however many requests are waiting.
    public init(whileAsking: WhileAsking = .wait, maximumAttempts: Int = 3, handler: @escaping Handler) {
        self.whileAsking = whileAsking
        self.maximumAttempts = max(1, maximumAttempts)
        self.handler = handler
    }
}
