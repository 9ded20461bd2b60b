import Foundation
import RiderDomain

/// Preferences on the wire: a JSON object whose known members are read into the typed model
/// and whose other members — unknown to this client — are kept and sent back as they came.
enum PreferencesDTO {
    /// Reads the server's document.
    /// - Throws: ``RiderError/malformedResponse(_:underlying:)`` when it is not an object or a known member
    ///   has the wrong type. Missing known members take their defaults.
    static func decode(_ data: Data) throws -> Preferences {
        let document = try ContractCoding.decode(JSONValue.self, from: data, what: "the preferences")
        guard let root = document.object else {
            throw RiderError.malformedResponse("the preferences are not a JSON object")
        }
        var preferences = Preferences(preserved: PreservedFields(document: data))
        let notifications = try section(root, "notifications")
        preferences.notifications.rideInvitations = try bool(notifications, "ride_invitations",
                                                             default: preferences.notifications.rideInvitations)
        preferences.notifications.messages = try bool(notifications, "messages", default: preferences.notifications.messages)
        preferences.notifications.newsletter = try bool(notifications, "newsletter",
                                                        default: preferences.notifications.newsletter)
        let visibility = try section(root, "visibility")
        switch visibility["profile"] {
        case nil: break
        case .string(let value)?: preferences.visibility.profile = ProfileVisibility(rawValue: value)
        case _?: throw RiderError.malformedResponse("the preferences' visibility.profile is not a string")
        }
        preferences.visibility.showBaseLocation = try bool(visibility, "show_base_location",
                                                           default: preferences.visibility.showBaseLocation)
        return preferences
    }

    /// The document to send: what the server sent last (``Preferences/preserved``) with the
    /// known members replaced by `preferences`' values.
    static func encode(_ preferences: Preferences) throws -> JSONValue {
        var root = (try? JSONDecoder().decode(JSONValue.self, from: preferences.preserved.document))?.object ?? [:]
        var notifications = root["notifications"]?.object ?? [:]
        notifications["ride_invitations"] = .bool(preferences.notifications.rideInvitations)
        notifications["messages"] = .bool(preferences.notifications.messages)
        notifications["newsletter"] = .bool(preferences.notifications.newsletter)
        root["notifications"] = .object(notifications)
        var visibility = root["visibility"]?.object ?? [:]
        visibility["profile"] = .string(preferences.visibility.profile.rawValue)
        visibility["show_base_location"] = .bool(preferences.visibility.showBaseLocation)
        root["visibility"] = .object(visibility)
        return .object(root)
    }

    private static func section(_ root: [String: JSONValue], _ key: String) throws -> [String: JSONValue] {
        guard let value = root[key] else { return [:] }
        guard let members = value.object else {
            throw RiderError.malformedResponse("the preferences' \(key) is not an object")
        }
        return members
    }

    private static func bool(_ section: [String: JSONValue], _ key: String, default value: Bool) throws -> Bool {
        switch section[key] {
        case nil: return value
        case .bool(let flag)?: return flag
        case _?: throw RiderError.malformedResponse("the preference \(key) is not true or false")
        }
    }
}
