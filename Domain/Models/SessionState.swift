import Foundation

/// Where the signed-in session stands, as an app or the CLI observes it.
///
/// Published by the session engine as an `AsyncStream`; consecutive equal states are sent once.
public enum SessionState: Hashable, Sendable, CustomStringConvertible {
    /// Nobody is signed in, and why.
    case signedOut(reason: SignOutReason)
    /// A session is in place; `expiresAt` is when its access token expires, when known.
    case signedIn(userID: UserID, expiresAt: Date?)
    /// A refresh for this user's session is under way; requests wait for it.
    case refreshing(userID: UserID)

    /// Why there is no session.
    public enum SignOutReason: String, Hashable, Sendable {
        /// No session was ever stored (or the vault holds none).
        case noSession
        /// The user logged out.
        case loggedOut
        /// The server rejected the refresh token: the user must log in again.
        case sessionExpired
    }

    public var description: String {
        switch self {
        case .signedOut(let reason): "signedOut(\(reason.rawValue))"
        case .signedIn(let user, let expiresAt):
            "signedIn(\(user.rawValue), expires: \(expiresAt.map { "\($0)" } ?? "unknown"))"
        case .refreshing(let user): "refreshing(\(user.rawValue))"
        }
    }
}
