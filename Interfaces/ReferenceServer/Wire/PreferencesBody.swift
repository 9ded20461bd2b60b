/// The contract's `Preferences`.
struct PreferencesBody: Encodable, Sendable {
    struct Notifications: Encodable, Sendable {
        let rideInvitations: Bool
        let messages: Bool
        let newsletter: Bool
        let weeklyDigest: Bool

        enum CodingKeys: String, CodingKey {
            case messages, newsletter
            case rideInvitations = "ride_invitations"
            case weeklyDigest = "weekly_digest"
        }
    }

    struct Visibility: Encodable, Sendable {
        let profile: String
        let showBaseLocation: Bool

        enum CodingKeys: String, CodingKey {
            case profile
            case showBaseLocation = "show_base_location"
        }
    }

    let notifications: Notifications
    let visibility: Visibility
    let units: String

    init(_ value: StoredPreferences) {
        notifications = Notifications(rideInvitations: value.rideInvitations, messages: value.messages,
                                      newsletter: value.newsletter, weeklyDigest: value.weeklyDigest)
        visibility = Visibility(profile: value.profileVisibility, showBaseLocation: value.showBaseLocation)
        units = value.units
    }
}
