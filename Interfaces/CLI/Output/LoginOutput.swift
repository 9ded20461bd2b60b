import Foundation
import RiderKit

/// What `rider login` reports: who is signed in and until when.
struct LoginOutput: Encodable, Sendable {
    let server: String
    let email: String
    let userID: String
    @Nullable var role: String?
    @Nullable var expiresAt: Date?

    init(server: String, email: String, session: Session) {
        self.server = server
        self.email = email.trimmingCharacters(in: .whitespacesAndNewlines)
        userID = session.userID.rawValue
        role = session.role?.rawValue
        expiresAt = session.expiresAt
    }

    var line: String {
        let validity = expiresAt.map { "session valid until \(HumanFormat.date($0))" } ?? "session expiry not stated by the server"
        return "Logged in as \(email.terminalSafe) (\(userID.terminalSafe)), \(validity)"
    }
}
