import Foundation
import RiderDomain

/// A JSON merge patch (RFC 7396) of a rider profile: absent keys stay, `null` removes.
struct RiderPatchDTO: Encodable, Sendable {
    var patch: RiderPatch

    enum CodingKeys: String, CodingKey {
        case description, sports
        case displayName = "display_name"
        case riderType = "rider_type"
        case avatarURL = "avatar_url"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(patch.displayName, forKey: .displayName)
        try container.encodeIfPresent(patch.riderType?.rawValue, forKey: .riderType)
        try container.encodeIfPresent(patch.sports, forKey: .sports)
        switch patch.description {
        case .unchanged: break
        case .set(let text): try container.encode(text, forKey: .description)
        case .remove: try container.encodeNil(forKey: .description)
        }
        switch patch.avatarURL {
        case .unchanged: break
        case .set(let url): try container.encode(url.absoluteString, forKey: .avatarURL)
        case .remove: try container.encodeNil(forKey: .avatarURL)
        }
    }
}
