import Foundation

/// A `POST /auth/register` body that passed validation.
struct ValidRegistration: Sendable {
    let email: String
    let password: String
    let displayName: String
    let riderType: RiderType

    /// Validates a decoded body, collecting every field error rather than stopping at the first.
    /// - Throws: A `422` problem listing every bad field.
    static func validate(_ body: [String: JSONValue]) throws(APIProblem) -> ValidRegistration {
        var errors: [FieldError] = []
        let email = FieldRules.string(body, "email", errors: &errors).map {
            $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if let email, !EmailRule.looksLikeAddress(email) {
            errors.append(FieldError(field: "email", message: "must look like an email address, e.g. name@example.com"))
        } else if let email {
            // Other riders see the email in listings, so it follows the display name's rule.
            _ = FieldRules.displaySafe(email, field: "email", errors: &errors)
        }
        let password = FieldRules.string(body, "password", errors: &errors)
        if let password, password.count < 8 {
            errors.append(FieldError(field: "password", message: "must be at least 8 characters long"))
        }
        let displayName = FieldRules.string(body, "display_name", errors: &errors).flatMap {
            FieldRules.displayName($0, errors: &errors)
        }
        let riderType = FieldRules.string(body, "rider_type", errors: &errors).flatMap {
            FieldRules.riderType($0, errors: &errors)
        }
        guard let email, let password, let displayName, let riderType, errors.isEmpty else {
            throw .validation(errors)
        }
        return ValidRegistration(email: email, password: password, displayName: displayName, riderType: riderType)
    }
}
