import Foundation
import RiderKit

/// What `rider session show` reveals about a session: whose it is and how long it lasts —
/// never a token.
struct SessionOutput: Encodable, Sendable {
    let server: String
    let userID: String
    let role: String?
    let issuedAt: Date
    let expiresAt: Date?
    let expiresInSeconds: Int?
    let refreshable: Bool
    let vault: String

    enum CodingKeys: String, CodingKey {
        case server, role, refreshable, vault
        case userID = "user_id"
        case issuedAt = "issued_at"
        case expiresAt = "expires_at"
        case expiresInSeconds = "expires_in_seconds"
    }

    init(_ session: Session, server: String, vault: String, now: Date) {
        self.server = server
        userID = session.userID.rawValue
        role = session.role?.rawValue
        issuedAt = session.issuedAt
        expiresAt = session.expiresAt
        expiresInSeconds = session.expiresAt.map { Int($0.timeIntervalSince(now).rounded(.down)) }
        refreshable = session.refreshToken != nil
        self.vault = vault
    }

    // Written out so absent values appear as `null`: scripts see the same keys every time.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(server, forKey: .server)
        try container.encode(userID, forKey: .userID)
        try container.encode(role, forKey: .role)
        try container.encode(issuedAt, forKey: .issuedAt)
        try container.encode(expiresAt, forKey: .expiresAt)
        try container.encode(expiresInSeconds, forKey: .expiresInSeconds)
        try container.encode(refreshable, forKey: .refreshable)
        try container.encode(vault, forKey: .vault)
    }

    func lines(now: Date) -> [String] {
        let expiry = expiresAt.map { "\(HumanFormat.date($0)) (\(HumanFormat.timeLeft(until: $0, from: now)))" }
        return HumanFormat.block([
            ("server", server),
            ("user id", userID),
            ("role", role ?? "unknown"),
            ("expires", expiry ?? "unknown (the server did not say)"),
            ("refresh", refreshable ? "automatic when the access token expires" : "not possible; log in again on expiry"),
            ("vault", vault),
        ])
    }
}
