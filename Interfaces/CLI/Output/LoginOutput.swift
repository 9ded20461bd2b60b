import Foundation
import RiderKit

/// What `rider login` reports: who is signed in and until when.
struct LoginOutput: Encodable, Sendable {
    let server: String
    /// The identity provider signed in at, when it is not the server itself.
    @Nullable var issuer: String?
    let email: String
    let userID: String
    @Nullable var role: String?
    @Nullable var expiresAt: Date?

    init(server: String, issuer: String? = nil, email: String, session: Session) {
        self.server = server
        self.issuer = issuer.flatMap { $0 == server || $0 == server + "/" ? nil : $0 }
        self.email = email.trimmingCharacters(in: .whitespacesAndNewlines)
        userID = session.userID.rawValue
        role = session.role?.rawValue
        expiresAt = session.expiresAt
    }

    var line: String {
        let validity = expiresAt.map { "session valid until \(HumanFormat.date($0))" } ?? "session expiry not stated by the server"
        // The server is named, and the provider too when they differ: a mistyped --server is
        // then seen at once, not after the first request fails.
        let at = issuer.map { " on \(server.terminalSafe) (signed in at \($0.terminalSafe))" } ?? " on \(server.terminalSafe)"
        return "Logged in as \(email.terminalSafe) (\(userID.terminalSafe))\(at), \(validity)"
    }
}
