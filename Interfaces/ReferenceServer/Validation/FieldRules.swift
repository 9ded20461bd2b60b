import Foundation

/// Field checks shared by registration and the rider merge patch, so that both say the same
/// thing about the same field.
enum FieldRules {
    static let displayNameLength = 1...60

    /// The string at `key`; records an error when it is missing or not a string.
    static func string(_ body: [String: JSONValue], _ key: String, errors: inout [FieldError]) -> String? {
        switch body[key] {
        case .string(let value):
            return value
        case nil:
            errors.append(FieldError(field: key, message: "is required"))
        case let other?:
            errors.append(FieldError(field: key, message: "must be a string, not \(other.typeName)"))
        }
        return nil
    }

    /// The display name trimmed, if its length is within 1…60 characters and it holds no
    /// control character or bidi override (``DisplaySafeText``).
    static func displayName(_ raw: String, errors: inout [FieldError]) -> String? {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard displayNameLength.contains(name.count) else {
            errors.append(FieldError(field: "display_name", message: "must be 1 to 60 characters long after trimming"))
            return nil
        }
        return displaySafe(name, field: "display_name", errors: &errors)
    }

    /// `text` when ``DisplaySafeText`` allows it; otherwise records why under `field`.
    static func displaySafe(_ text: String, field: String, errors: inout [FieldError]) -> String? {
        if let message = DisplaySafeText.problem(in: text) {
            errors.append(FieldError(field: field, message: message))
            return nil
        }
        return text
    }

    static func riderType(_ raw: String, errors: inout [FieldError]) -> RiderType? {
        guard let type = RiderType(rawValue: raw) else {
            errors.append(FieldError(field: "rider_type", message: "must be \"mentor\" or \"learner\""))
            return nil
        }
        return type
    }
}
