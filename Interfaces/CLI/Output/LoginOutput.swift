import Foundation
import RiderKit

/// What `rider login` reports: who is signed in and until when.
struct LoginOutput: Encodable, Sendable {
    let server: String
    let email: String
    let userID: String
    let role: String?
    let expiresAt: Date?

    enum CodingKeys: String, CodingKey {
        case server, email, role
        case userID = "user_id"
        case expiresAt = "expires_at"
    }

    init(server: String, email: String, session: Session) {
        self.server = server
        self.email = email.trimmingCharacters(in: .whitespacesAndNewlines)
        userID = session.userID.rawValue
        role = session.role?.rawValue
        expiresAt = session.expiresAt
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(server, forKey: .server)
        try container.encode(email, forKey: .email)
        try container.encode(userID, forKey: .userID)
        try container.encode(role, forKey: .role)
        try container.encode(expiresAt, forKey: .expiresAt)
    }

    var line: String {
        let validity = expiresAt.map { "session valid until \(HumanFormat.date($0))" } ?? "session expiry not stated by the server"
        return "Logged in as \(email.terminalSafe) (\(userID.terminalSafe)), \(validity)"
    }
}
