import Foundation
import RiderDomain

/// A rider profile on the wire; the entity tag travels in the `ETag` header.
struct RiderDTO: Decodable, Sendable {
    var userID: String
    var displayName: String
    var riderType: String
    var description: String?
    var avatarURL: String?
    var sports: [String]?
    var updatedAt: Date?

    enum CodingKeys: String, CodingKey {
        case description, sports
        case userID = "user_id"
        case displayName = "display_name"
        case riderType = "rider_type"
        case avatarURL = "avatar_url"
        case updatedAt = "updated_at"
    }

    /// - Throws: ``RiderError/malformedResponse(_:underlying:)`` for a rider type this client does not know.
    func toDomain(entityTag: EntityTag?) throws -> Rider {
        guard let type = RiderType(rawValue: riderType) else {
            throw RiderError.malformedResponse("the profile has an unknown rider type '\(ProblemMapping.clip(riderType))'")
        }
        return Rider(
            userID: UserID(userID),
            displayName: displayName,
            riderType: type,
            description: description,
            avatarURL: avatarURL.flatMap(URL.init(string:)),
            sports: sports ?? [],
            updatedAt: updatedAt,
            entityTag: entityTag
        )
    }
}
