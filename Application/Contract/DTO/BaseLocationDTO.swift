import Foundation
import RiderDomain

/// A base location on the wire, in both directions (`updated_at` only comes back).
struct BaseLocationDTO: Codable, Sendable {
    var latitude: Double
    var longitude: Double
    var placeName: String?
    var updatedAt: Date?

    enum CodingKeys: String, CodingKey {
        case latitude, longitude
        case placeName = "place_name"
        case updatedAt = "updated_at"
    }

    init(_ location: BaseLocation) {
        latitude = location.latitude
        longitude = location.longitude
        placeName = location.placeName
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
        // Always sent, so `null` clears a name given before: PUT replaces the whole location.
        try container.encode(placeName, forKey: .placeName)
    }

    /// - Throws: ``RiderError/malformedResponse(_:underlying:)`` when the server sent a point no map has.
    func toDomain() throws -> BaseLocation {
        do {
            return try BaseLocation(latitude: latitude, longitude: longitude, placeName: placeName, updatedAt: updatedAt)
        } catch {
            throw RiderError.malformedResponse("the base location is outside the range of coordinates")
        }
    }
}
