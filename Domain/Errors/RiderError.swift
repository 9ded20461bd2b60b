import Foundation

/// Everything that can go wrong in RiderKit, in terms a caller can switch on.
///
/// Adapters map their own failures (URL errors, file errors, HTTP statuses) into
/// these cases at the seam, so callers never see a technology-specific error.
public enum RiderError: Error, Hashable, Sendable {
    /// The email or password was not accepted.
    case invalidCredentials
    /// No session is stored: log in first.
    case notSignedIn
    /// The session can no longer be refreshed (refresh token rejected or missing): log in again.
    case sessionExpired
    /// The session expired and the person is being asked to sign in again right now; this
    /// request was not sent (only when the program chose to fail fast rather than wait).
    case awaitingAuthorization
    /// The server understood the request but the account may not do this.
    case forbidden(detail: String?)
    /// The thing asked for does not exist (for example an unknown user id).
    case notFound(detail: String?)
    /// The request clashes with existing data (for example the email is already registered).
    case alreadyExists(detail: String?)
    /// Someone changed the resource since it was read (`If-Match` failed). Carries the
    /// server's current version when it could be fetched, so the edit can be redone on top of it.
    case conflict(current: Rider?)
    /// The input was rejected; each problem names the field.
    case invalidInput([FieldProblem])
    /// The picture cannot become the avatar (empty, too large, not a JPEG or PNG, unreadable).
    /// Raised before anything is sent when RiderKit can tell, else from the server's answer.
    case invalidAvatar(AvatarProblem)
    /// The server could not be reached (down, no route, connection refused or dropped).
    case serverUnreachable(reason: String)
    /// The server did not answer within the configured timeout.
    case timedOut
    /// The server asked the client to slow down.
    case rateLimited(retryAfter: TimeInterval?)
    /// The server failed (5xx) or answered with a status the contract does not allow.
    case server(status: Int, detail: String?)
    /// The server answered with data that does not follow the contract.
    case malformedResponse(String)
    /// The server issued a token of a type RiderKit cannot use safely (only `Bearer` is supported).
    case unsupportedTokenType(String)
    /// The server redirected somewhere RiderKit will not follow (from https to plain http, or
    /// too many hops); the value names the target's origin.
    case unsafeRedirect(String)
    /// The configuration is unusable (for example plain http to a remote host, or a bad URL).
    case invalidConfiguration(String)
    /// Local storage (token vault or cache) failed; the message says which file or service.
    case storage(String)
}
