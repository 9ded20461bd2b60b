import Foundation
import RiderKit

/// A rider profile as `rider` prints it, including the version (`etag`) an edit is based on.
struct RiderOutput: Encodable, Sendable {
    let userID: String
    let displayName: String
    let riderType: String
    let description: String?
    let avatarURL: String?
    let sports: [String]
    let updatedAt: Date?
    let etag: String?

    enum CodingKeys: String, CodingKey {
        case description, sports, etag
        case userID = "user_id"
        case displayName = "display_name"
        case riderType = "rider_type"
        case avatarURL = "avatar_url"
        case updatedAt = "updated_at"
    }

    init(_ rider: Rider) {
        userID = rider.userID.rawValue
        displayName = rider.displayName
        riderType = rider.riderType.rawValue
        description = rider.description
        avatarURL = rider.avatarURL?.absoluteString
        sports = rider.sports
        updatedAt = rider.updatedAt
        etag = rider.entityTag?.rawValue
    }

    // Written out so absent values appear as `null`: scripts see the same keys every time.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(userID, forKey: .userID)
        try container.encode(displayName, forKey: .displayName)
        try container.encode(riderType, forKey: .riderType)
        try container.encode(description, forKey: .description)
        try container.encode(avatarURL, forKey: .avatarURL)
        try container.encode(sports, forKey: .sports)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(etag, forKey: .etag)
    }

    var lines: [String] {
        HumanFormat.block([
            ("user id", userID),
            ("display name", displayName),
            ("type", riderType),
            ("description", description ?? "-"),
            ("avatar", avatarURL ?? "-"),
            ("sports", sports.isEmpty ? "-" : sports.joined(separator: ", ")),
            ("updated", updatedAt.map(HumanFormat.date) ?? "-"),
            ("version", etag ?? "-"),
        ])
    }
}
