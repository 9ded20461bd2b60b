import Foundation
import RiderDomain

/// Signs in with an email and password and keeps the session in the vault.
///
/// The password goes to the token endpoint once and is not kept anywhere.
public struct Login: Sendable {
    let api: APIClient
    let sessions: SessionEngine
    let clock: any Clock

    public init(api: APIClient, sessions: SessionEngine, clock: any Clock) {
        self.api = api
        self.sessions = sessions
        self.clock = clock
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
        let issuedAt = clock.now
        await sessions.noteServerClock(from: grant, receivedAt: issuedAt)
        let skew = await sessions.clockSkew
        var session: Session
        if let userID = grant.userID {
            session = try grant.session(issuedAt: issuedAt, userID: userID, clockSkew: skew)
        } else {
            // A standard OAuth server need not say whose token it is: ask the API.
            let provisional = try grant.session(issuedAt: issuedAt, userID: UserID(""), clockSkew: skew)
            let me = try await api.send(API.me(in: api.configuration), as: provisional)
            session = provisional
            session.userID = me.id
            if session.role == nil { session.role = me.role }
        }
        do {
            try await sessions.establish(session)
        } catch {
            // The server issued tokens nobody can keep (for example the vault has no passphrase):
            // revoke them rather than leave a live refresh token behind, then report the failure.
            try? await api.revoke(session)
            throw error
        }
        return session
    }
}
