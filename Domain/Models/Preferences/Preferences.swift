import Foundation

/// The signed-in rider's notification and visibility settings.
///
/// Servers may know settings this version of RiderKit does not. They travel in ``preserved``
/// and are sent back untouched, so saving preferences from an older client never erases a
/// setting a newer one made.
public struct Preferences: Hashable, Sendable {
    public var notifications: NotificationSettings
    public var visibility: VisibilitySettings
    /// Everything else the server sent, opaque here; the contract layer puts it back on save.
    public var preserved: PreservedFields

    public init(notifications: NotificationSettings = NotificationSettings(),
                visibility: VisibilitySettings = VisibilitySettings(),
                preserved: PreservedFields = PreservedFields()) {
        self.notifications = notifications
        self.visibility = visibility
        self.preserved = preserved
    }
}

/// Which messages the server may send the rider.
public struct NotificationSettings: Hashable, Sendable {
    /// Another rider invites you to a ride.
    public var rideInvitations: Bool
    /// Another rider sends you a message.
    public var messages: Bool
    /// The community's newsletter.
    public var newsletter: Bool

    public init(rideInvitations: Bool = true, messages: Bool = true, newsletter: Bool = false) {
        self.rideInvitations = rideInvitations
        self.messages = messages
        self.newsletter = newsletter
    }
}

/// Who sees what of the rider.
public struct VisibilitySettings: Hashable, Sendable {
    /// Who may see the rider profile.
    public var profile: ProfileVisibility
    /// Whether riders who may see the profile also see the base location.
    public var showBaseLocation: Bool

    public init(profile: ProfileVisibility = .members, showBaseLocation: Bool = false) {
        self.profile = profile
        self.showBaseLocation = showBaseLocation
    }
}

/// Who may see a rider profile. Open-ended: a value a newer server introduced is kept as it came.
public struct ProfileVisibility: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// Anyone, signed in or not.
    public static let everyone = ProfileVisibility(rawValue: "everyone")
    /// Signed-in members only.
    public static let members = ProfileVisibility(rawValue: "members")
    /// Nobody but the rider.
    public static let nobody = ProfileVisibility(rawValue: "nobody")
    /// The values this version knows, for help texts and validation.
    public static let known: [ProfileVisibility] = [.everyone, .members, .nobody]

    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }
}

/// Settings the server sent that this version of RiderKit does not model, kept as the bytes
/// of the server's document. Opaque to the domain; only the contract layer reads them.
public struct PreservedFields: Hashable, Sendable {
    /// The server's document as received; empty when nothing was received yet.
    public let document: Data

    public init(document: Data = Data()) { self.document = document }
}
