import Foundation

/// A partial update of the signed-in user's rider profile.
///
/// Fields left `nil` (or `.unchanged`) are not sent, so the server keeps them.
public struct RiderPatch: Hashable, Sendable {
    public var displayName: String?
    public var riderType: RiderType?
    public var description: PatchValue<String>
    public var avatarURL: PatchValue<URL>
    public var sports: [String]?

    public init(
        displayName: String? = nil,
        riderType: RiderType? = nil,
        description: PatchValue<String> = .unchanged,
        avatarURL: PatchValue<URL> = .unchanged,
        sports: [String]? = nil
    ) {
        self.displayName = displayName
        self.riderType = riderType
        self.description = description
        self.avatarURL = avatarURL
        self.sports = sports
    }

    /// Whether applying the patch would change nothing.
    public var isEmpty: Bool {
        displayName == nil && riderType == nil && description == .unchanged && avatarURL == .unchanged
            && sports == nil
    }
}
