import Foundation
import RiderDomain

/// How a session is serialized inside a vault. Versioned so later formats can read old files.
///
/// Version 2 adds the server the session belongs to (``SessionBinding``); version 1, written
/// before sessions were bound, has none, and each vault decides how far it trusts one.
struct StoredSession: Codable, Sendable {
    static let currentVersion = 2

    var version: Int
    var accessToken: String
    var refreshToken: String?
    var expiresAt: Date?
    var userID: String
    var role: String?
    var tokenType: String
    var issuedAt: Date
    var apiOrigin: String?
    var tokenEndpointOrigin: String?
    /// The OpenID identity; absent from files written before it existed, and ignored by them.
    var identity: AccountIdentity?
    /// Where the session's tokens may be revoked (``Session/revocationOrigin``); absent from files
    /// written before it was recorded.
    var revocationOrigin: String?
    /// The DPoP private key the tokens are bound to (``Session/proofKey``); absent for bearer
    /// sessions and from files written before DPoP.
    var proofKey: Data?
    /// Whether it is the client's own session (``Session/isClientSession``); absent (false) for
    /// a person's, and from files written before client sessions.
    var clientSession: Bool?
    /// The protected resource the tokens were issued for (``Session/resource``); absent for a
    /// session that named none, and from files written before resources.
    var resource: String?

    enum CodingKeys: String, CodingKey {
        case version
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case expiresAt = "expires_at"
        case userID = "user_id"
        case role
        case tokenType = "token_type"
        case issuedAt = "issued_at"
        case apiOrigin = "api_origin"
        case tokenEndpointOrigin = "token_endpoint_origin"
        case identity
        case revocationOrigin = "revocation_origin"
        case proofKey = "dpop_key"
        case clientSession = "client_session"
        case resource
    }

    init(_ session: Session, binding: SessionBinding?) {
        version = Self.currentVersion
        accessToken = session.accessToken
        refreshToken = session.refreshToken
        expiresAt = session.expiresAt
        userID = session.userID.rawValue
        role = session.role?.rawValue
        tokenType = session.tokenType
        issuedAt = session.issuedAt
        apiOrigin = binding?.apiOrigin
        tokenEndpointOrigin = binding?.tokenEndpointOrigin
        identity = session.identity
        revocationOrigin = session.revocationOrigin
        proofKey = session.proofKey
        clientSession = session.isClientSession ? true : nil
        resource = session.resource?.absoluteString
    }

    /// The server recorded with the session; `nil` for a version 1 session.
    var binding: SessionBinding? {
        guard let apiOrigin else { return nil }
        return SessionBinding(apiOrigin: apiOrigin, tokenEndpointOrigin: tokenEndpointOrigin)
    }

    func toDomain() -> Session {
        var session = Session(accessToken: accessToken, refreshToken: refreshToken, expiresAt: expiresAt,
                              userID: UserID(userID), role: role.map(Role.init(rawValue:)), tokenType: tokenType,
                              issuedAt: issuedAt, identity: identity)
        session.revocationOrigin = revocationOrigin
        session.proofKey = proofKey
        session.isClientSession = clientSession ?? false
        session.resource = resource.flatMap { URL(string: $0) }
        return session
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
