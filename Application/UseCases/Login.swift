import Foundation
import RiderDomain

/// Signs in with an email and password and keeps the session in the vault.
///
/// The password goes to the token endpoint once and is not kept anywhere.
public struct Login: Sendable {
    let api: APIClient
    let sessions: SessionEngine

    package init(api: APIClient, sessions: SessionEngine) {
        self.api = api
        self.sessions = sessions
    }

    /// - Returns: the new session (it is already stored when this returns). When it cannot be
    ///   stored, the tokens just issued are revoked on the server before the error is thrown.
    /// - Throws: `RiderError.invalidInput(_:)` for an empty email or password,
    ///   `RiderError.invalidCredentials`, `RiderError.serverUnreachable(reason:)`,
    ///   `RiderError.malformedResponse(_:)`, `RiderError.storage(_:)`.
    public func callAsFunction(_ credentials: Credentials) async throws -> Session {
        var problems: [FieldProblem] = []
        let email = credentials.email.trimmingCharacters(in: .whitespacesAndNewlines)
        if email.isEmpty { problems.append(FieldProblem(field: "email", message: "is required")) }
        if credentials.password.isEmpty { problems.append(FieldProblem(field: "password", message: "is required")) }
        guard problems.isEmpty else { throw RiderError.invalidInput(problems) }

        let grant = try await api.send(API.passwordGrant(Credentials(email: email, password: credentials.password),
                                                         in: api.configuration))
        let api = self.api
        return try await sessions.signIn(with: grant) { provisional in
            // A standard OAuth server need not say whose token it is: ask the API.
            let me = try await api.send(API.me(in: api.configuration), as: provisional)
            return (me.id, me.role)
        } revoke: { session in
            // The server issued tokens nobody can keep (for example the vault has no passphrase):
            // revoke them rather than leave a live refresh token behind.
            try? await api.revoke(session)
        }
    }
}
