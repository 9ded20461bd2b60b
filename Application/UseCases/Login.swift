import Foundation
import RiderDomain

/// Signs in with an email and password and keeps the session in the vault.
///
/// The password goes to the token endpoint once and is not kept anywhere. The session engine
/// does the work, so a re-authentication after an expiry signs in exactly as this does.
public struct Login: Sendable {
    let sessions: SessionEngine

    package init(sessions: SessionEngine) {
        self.sessions = sessions
    }

    /// - Returns: the new session (it is already stored when this returns). When it cannot be
    ///   stored, the tokens just issued are revoked on the server before the error is thrown.
    /// - Throws: `RiderError.invalidInput(_:)` for an empty email or password,
    ///   `RiderError.invalidCredentials`, `RiderError.invalidConfiguration(_:)` when the provider
    ///   does not offer sign-in with a password (use `signInWithDeviceCode`),
    ///   `RiderError.serverUnreachable(reason:)`,
    ///   `RiderError.malformedResponse(_:)`, `RiderError.storage(_:)`.
    public func callAsFunction(_ credentials: Credentials) async throws -> Session {
        try await sessions.signIn(.password(credentials))
    }
}
