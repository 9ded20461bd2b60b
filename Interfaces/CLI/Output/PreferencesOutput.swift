import RiderKit

/// Preferences as `rider profile preferences` prints them (the settings RiderKit knows).
struct PreferencesOutput: Encodable, Sendable {
    struct Notifications: Encodable, Sendable {
        let rideInvitations: Bool
        let messages: Bool
        let newsletter: Bool
    }

    struct Visibility: Encodable, Sendable {
        let profile: String
        let showBaseLocation: Bool
    }

    let notifications: Notifications
    let visibility: Visibility

    init(_ preferences: Preferences) {
        notifications = Notifications(rideInvitations: preferences.notifications.rideInvitations,
                                      messages: preferences.notifications.messages,
                                      newsletter: preferences.notifications.newsletter)
        visibility = Visibility(profile: preferences.visibility.profile.rawValue,
                                showBaseLocation: preferences.visibility.showBaseLocation)
    }

    var lines: [String] {
        func onOff(_ flag: Bool) -> String { flag ? "on" : "off" }
        return HumanFormat.block([
            ("ride invitations", onOff(notifications.rideInvitations)),
            ("messages", onOff(notifications.messages)),
            ("newsletter", onOff(notifications.newsletter)),
            ("profile visible to", visibility.profile),
            ("show base location", onOff(visibility.showBaseLocation)),
        ])
    }
}
