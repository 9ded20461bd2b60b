import Foundation

/// A member of the community as other members see them.
public struct User: Identifiable, Hashable, Sendable {
    public var id: UserID
    public var email: String
    public var displayName: String
    public var role: Role
    public var riderType: RiderType?
    public var createdAt: Date?

    public init(
        id: UserID,
        email: String,
        displayName: String,
        role: Role = .user,
        riderType: RiderType? = nil,
        createdAt: Date? = nil
    ) {
        self.id = id
        self.email = email
        self.displayName = displayName
        self.role = role
        self.riderType = riderType
        self.createdAt = createdAt
    }
}
