/// Validates a `PUT /riders/me/preferences` body: the whole document, missing members take
/// their defaults, unknown members are rejected.
enum PreferencesInput {
    /// - Throws: A `422` problem naming every bad member by its dotted path.
    static func validate(_ body: [String: JSONValue]) throws(APIProblem) -> StoredPreferences {
        var value = StoredPreferences()
        var errors: [FieldError] = []
        for key in body.keys.sorted() where !["notifications", "visibility", "units"].contains(key) {
            errors.append(FieldError(field: key, message: "is not a preference"))
        }
        let notifications = section(body, "notifications", known: ["ride_invitations", "messages", "newsletter", "weekly_digest"],
                                    errors: &errors)
        flag(notifications, "notifications", "ride_invitations", into: &value.rideInvitations, errors: &errors)
        flag(notifications, "notifications", "messages", into: &value.messages, errors: &errors)
        flag(notifications, "notifications", "newsletter", into: &value.newsletter, errors: &errors)
        flag(notifications, "notifications", "weekly_digest", into: &value.weeklyDigest, errors: &errors)
        let visibility = section(body, "visibility", known: ["profile", "show_base_location"], errors: &errors)
        choice(visibility["profile"], "visibility.profile", StoredPreferences.profileVisibilities,
               into: &value.profileVisibility, errors: &errors)
        flag(visibility, "visibility", "show_base_location", into: &value.showBaseLocation, errors: &errors)
        choice(body["units"], "units", StoredPreferences.unitSystems, into: &value.units, errors: &errors)
        guard errors.isEmpty else { throw .validation(errors) }
        return value
    }

    private static func section(_ body: [String: JSONValue], _ key: String, known: Set<String>,
                                errors: inout [FieldError]) -> [String: JSONValue] {
        switch body[key] {
        case nil:
            return [:]
        case .object(let members)?:
            for member in members.keys.sorted() where !known.contains(member) {
                errors.append(FieldError(field: "\(key).\(member)", message: "is not a preference"))
            }
            return members
        case let other?:
            errors.append(FieldError(field: key, message: "must be an object, not \(other.typeName)"))
            return [:]
        }
    }

    private static func flag(_ section: [String: JSONValue], _ prefix: String, _ key: String, into value: inout Bool,
                             errors: inout [FieldError]) {
        switch section[key] {
        case nil: break
        case .bool(let flag)?: value = flag
        case let other?: errors.append(FieldError(field: "\(prefix).\(key)", message: "must be true or false, not \(other.typeName)"))
        }
    }

    private static func choice(_ raw: JSONValue?, _ field: String, _ allowed: [String], into value: inout String,
                               errors: inout [FieldError]) {
        switch raw {
        case nil: break
        case .string(let text)? where allowed.contains(text): value = text
        default: errors.append(FieldError(field: field, message: "must be one of \(allowed.joined(separator: ", "))"))
        }
    }
}
