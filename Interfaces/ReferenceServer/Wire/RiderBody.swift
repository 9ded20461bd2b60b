/// The contract's `Rider`, the signed-in user's own profile.
struct RiderBody: Encodable, Sendable {
    let userID: String
    let displayName: String
    let riderType: String
    let description: String?
    let avatarURL: String?
    let sports: [String]
    let updatedAt: String

    init(_ user: ReferenceUser) {
        userID = user.id
        displayName = user.displayName
        riderType = user.riderType.rawValue
        description = user.description
        avatarURL = user.avatarURL
        sports = user.sports
        updatedAt = WireCoding.timestamp(user.updatedAt)
    }

    enum CodingKeys: String, CodingKey {
        case description, sports
        case userID = "user_id"
        case displayName = "display_name"
        case riderType = "rider_type"
        case avatarURL = "avatar_url"
        case updatedAt = "updated_at"
    }

    /// Written by hand because the contract wants `null`, not an absent key, for a missing
    /// description or avatar.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(userID, forKey: .userID)
        try container.encode(displayName, forKey: .displayName)
        try container.encode(riderType, forKey: .riderType)
        try container.encode(description, forKey: .description)
        try container.encode(avatarURL, forKey: .avatarURL)
        try container.encode(sports, forKey: .sports)
        try container.encode(updatedAt, forKey: .updatedAt)
    }
}
