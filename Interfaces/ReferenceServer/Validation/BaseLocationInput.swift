import Foundation

/// A validated `PUT /riders/me/base-location` body.
struct BaseLocationInput: Sendable {
    static let fields: Set<String> = ["latitude", "longitude", "place_name"]
    static let placeNameLength = 100

    let latitude: Double
    let longitude: Double
    let placeName: String?

    /// - Throws: A `422` problem naming every bad member.
    static func validate(_ body: [String: JSONValue]) throws(APIProblem) -> BaseLocationInput {
        var errors: [FieldError] = []
        for key in body.keys.sorted() where !fields.contains(key) {
            errors.append(FieldError(field: key, message: key == "updated_at" ? "is read-only" : "is not a field of a base location"))
        }
        let latitude = coordinate(body, "latitude", range: -90...90, errors: &errors)
        let longitude = coordinate(body, "longitude", range: -180...180, errors: &errors)
        var placeName: String?
        switch body["place_name"] {
        case nil, .null?:
            break
        case .string(let raw)?:
            let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.count > placeNameLength {
                errors.append(FieldError(field: "place_name", message: "must be at most \(placeNameLength) characters long"))
            } else {
                _ = FieldRules.displaySafe(trimmed, field: "place_name", errors: &errors)
            }
            placeName = trimmed.isEmpty ? nil : trimmed
        case let other?:
            errors.append(FieldError(field: "place_name", message: "must be a string or null, not \(other.typeName)"))
        }
        guard errors.isEmpty, let latitude, let longitude else { throw .validation(errors) }
        return BaseLocationInput(latitude: latitude, longitude: longitude, placeName: placeName)
    }

    private static func coordinate(_ body: [String: JSONValue], _ key: String, range: ClosedRange<Double>,
                                   errors: inout [FieldError]) -> Double? {
        let message = "must be a number from \(Int(range.lowerBound)) to \(Int(range.upperBound))"
        switch body[key] {
        case .number(let value)? where range.contains(value):
            return value
        case nil:
            errors.append(FieldError(field: key, message: "is required"))
        default:
            errors.append(FieldError(field: key, message: message))
        }
        return nil
    }
}
