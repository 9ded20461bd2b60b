import Foundation

/// A validated RFC 7396 merge patch of the rider profile.
///
/// A member that is absent leaves the field alone; `null` removes `description` or `avatar_url`
/// and empties `sports`; `display_name` and `rider_type` cannot be removed.
struct RiderChanges: Sendable {
    /// A new value, or removal (`null`).
    enum Change<Value: Sendable>: Sendable {
        case set(Value)
        case remove
    }

    static let writableFields: Set<String> = ["display_name", "rider_type", "description", "avatar_url", "sports"]
    static let readOnlyFields: Set<String> = ["user_id", "updated_at"]
    static let descriptionLength = 500
    static let maximumSports = 20
    static let sportLength = 1...40

    var displayName: String?
    var riderType: RiderType?
    var description: Change<String>?
    var avatarURL: Change<String>?
    var sports: Change<[String]>?

    /// Validates a merge patch object, collecting every field error.
    /// - Throws: A `422` problem listing every bad field.
    static func validate(_ patch: [String: JSONValue]) throws(APIProblem) -> RiderChanges {
        var changes = RiderChanges()
        var errors: [FieldError] = []
        for key in patch.keys.sorted() where !writableFields.contains(key) {
            let message = readOnlyFields.contains(key) ? "is read-only" : "is not a field of the rider profile"
            errors.append(FieldError(field: key, message: message))
        }
        if let value = patch["display_name"] {
            if case .null = value {
                errors.append(FieldError(field: "display_name", message: "cannot be removed"))
            } else if let raw = FieldRules.string(patch, "display_name", errors: &errors) {
                changes.displayName = FieldRules.displayName(raw, errors: &errors)
            }
        }
        if let value = patch["rider_type"] {
            if case .null = value {
                errors.append(FieldError(field: "rider_type", message: "cannot be removed"))
            } else if let raw = FieldRules.string(patch, "rider_type", errors: &errors) {
                changes.riderType = FieldRules.riderType(raw, errors: &errors)
            }
        }
        // One line: the contract has never promised multi-line descriptions, and a newline is a
        // control character like the rest (DisplaySafeText).
        changes.description = nullableString(patch, "description", errors: &errors) { text in
            text.count <= descriptionLength
                ? DisplaySafeText.problem(in: text) : "must be at most \(descriptionLength) characters long"
        }
        changes.avatarURL = nullableString(patch, "avatar_url", errors: &errors) { text in
            !text.unicodeScalars.contains(where: DisplaySafeText.isRefused) && isWebURL(text)
                ? nil : "must be an absolute http or https URL"
        }
        changes.sports = sports(patch["sports"], errors: &errors)
        guard errors.isEmpty else { throw .validation(errors) }
        return changes
    }

    /// Writes the changes into `user`.
    func apply(to user: inout ReferenceUser) {
        if let displayName { user.rename(to: displayName) }
        if let riderType { user.riderType = riderType }
        switch description {
        case .set(let text): user.description = text
        case .remove: user.description = nil
        case nil: break
        }
        switch avatarURL {
        case .set(let url): user.avatarURL = url
        case .remove: user.avatarURL = nil
        case nil: break
        }
        switch sports {
        case .set(let list): user.sports = list
        case .remove: user.sports = []
        case nil: break
        }
    }

    private static func nullableString(
        _ patch: [String: JSONValue],
        _ key: String,
        errors: inout [FieldError],
        problem: (String) -> String?
    ) -> Change<String>? {
        switch patch[key] {
        case nil:
            return nil
        case .null?:
            return .remove
        case .string(let text)?:
            if let message = problem(text) {
                errors.append(FieldError(field: key, message: message))
                return nil
            }
            return .set(text)
        case let other?:
            errors.append(FieldError(field: key, message: "must be a string or null, not \(other.typeName)"))
            return nil
        }
    }

    private static func sports(_ value: JSONValue?, errors: inout [FieldError]) -> Change<[String]>? {
        switch value {
        case nil:
            return nil
        case .null?:
            return .remove
        case .array(let items)?:
            guard items.count <= maximumSports else {
                errors.append(FieldError(field: "sports", message: "must hold at most \(maximumSports) entries"))
                return nil
            }
            var sports: [String] = []
            for (position, item) in items.enumerated() {
                guard case .string(let sport) = item, sportLength.contains(sport.count) else {
                    errors.append(FieldError(field: "sports[\(position)]", message: "must be a string of 1 to 40 characters"))
                    continue
                }
                guard let safe = FieldRules.displaySafe(sport, field: "sports[\(position)]", errors: &errors) else { continue }
                sports.append(safe)
            }
            return sports.count == items.count ? .set(sports) : nil
        case let other?:
            errors.append(FieldError(field: "sports", message: "must be an array of strings or null, not \(other.typeName)"))
            return nil
        }
    }

    private static func isWebURL(_ text: String) -> Bool {
        guard text.count <= 2048, let components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty
        else { return false }
        return true
    }
}
