import Foundation
import RiderKit

/// A rider profile as `rider` prints it, including the version (`etag`) an edit is based on.
struct RiderOutput: Encodable, Sendable {
    let userID: String
    let displayName: String
    let riderType: String
    @Nullable var description: String?
    @Nullable var avatarURL: String?
    let sports: [String]
    @Nullable var updatedAt: Date?
    @Nullable var etag: String?

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
