import Foundation
import RiderDomain

/// How a session is serialized inside a vault. Versioned so later formats can read old files.
struct StoredSession: Codable, Sendable {
    static let currentVersion = 1

    var version: Int
    var accessToken: String
    var refreshToken: String?
    var expiresAt: Date?
    var userID: String
    var role: String?
    var tokenType: String
    var issuedAt: Date

    enum CodingKeys: String, CodingKey {
        case version
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case expiresAt = "expires_at"
        case userID = "user_id"
        case role
        case tokenType = "token_type"
        case issuedAt = "issued_at"
    }

    init(_ session: Session) {
        version = Self.currentVersion
        accessToken = session.accessToken
        refreshToken = session.refreshToken
        expiresAt = session.expiresAt
        userID = session.userID.rawValue
        role = session.role?.rawValue
        tokenType = session.tokenType
        issuedAt = session.issuedAt
    }

    func toDomain() -> Session {
        Session(accessToken: accessToken, refreshToken: refreshToken, expiresAt: expiresAt,
                userID: UserID(userID), role: role.map(Role.init(rawValue:)), tokenType: tokenType,
                issuedAt: issuedAt)
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    static func decode(_ data: Data) throws -> StoredSession {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(StoredSession.self, from: data)
    }
}
