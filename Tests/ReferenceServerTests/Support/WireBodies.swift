/// The contract's bodies as a client reads them, written independently of the server's types.
struct TokenBody: Decodable, Sendable {
    let accessToken: String
    let tokenType: String
    let expiresIn: Int
    let refreshToken: String
    let userID: String
    let role: String
    let scope: String?

    enum CodingKeys: String, CodingKey {
        case role, scope
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case userID = "user_id"
    }
}

struct TokenErrorBody: Decodable, Sendable {
    let error: String
    let errorDescription: String

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }
}

struct ProblemBody: Decodable, Sendable {
    struct FieldError: Decodable, Sendable, Hashable {
        let field: String
        let message: String
    }

    let type: String
    let title: String
    let status: Int
    let detail: String
    let errors: [FieldError]?

    var fields: [String] { (errors ?? []).map(\.field) }
}

struct UserBody: Decodable, Sendable, Equatable {
    let id: String
    let email: String
    let displayName: String
    let role: String
    let riderType: String
    let createdAt: String

    enum CodingKeys: String, CodingKey {
        case id, email, role
        case displayName = "display_name"
        case riderType = "rider_type"
        case createdAt = "created_at"
    }
}

struct UserPageBody: Decodable, Sendable {
    let users: [UserBody]
    let total: Int
    let page: Int
    let limit: Int
    let hasNext: Bool

    enum CodingKeys: String, CodingKey {
        case users, total, page, limit
        case hasNext = "has_next"
    }
}

struct RiderBody: Decodable, Sendable, Equatable {
    let userID: String
    let displayName: String
    let riderType: String
    let description: String?
    let avatarURL: String?
    let sports: [String]
    let updatedAt: String

    enum CodingKeys: String, CodingKey {
        case description, sports
        case userID = "user_id"
        case displayName = "display_name"
        case riderType = "rider_type"
        case avatarURL = "avatar_url"
        case updatedAt = "updated_at"
    }
}
