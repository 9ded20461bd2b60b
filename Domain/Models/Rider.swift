import Foundation

/// The signed-in user's own rider profile.
public struct Rider: Hashable, Sendable {
    public var userID: UserID
    public var displayName: String
    public var riderType: RiderType
    public var description: String?
    public var avatarURL: URL?
    public var sports: [String]
    public var updatedAt: Date?
    /// The version of the profile this value reflects; sent back as `If-Match`
    /// so an edit never silently overwrites a newer one.
    public var entityTag: EntityTag?

    public init(
        userID: UserID,
        displayName: String,
        riderType: RiderType,
        description: String? = nil,
        avatarURL: URL? = nil,
        sports: [String] = [],
        updatedAt: Date? = nil,
        entityTag: EntityTag? = nil
    ) {
        self.userID = userID
        self.displayName = displayName
        self.riderType = riderType
        self.description = description
        self.avatarURL = avatarURL
        self.sports = sports
        self.updatedAt = updatedAt
        self.entityTag = entityTag
    }
}
