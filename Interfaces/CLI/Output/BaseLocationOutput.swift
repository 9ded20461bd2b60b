import Foundation
import RiderKit

/// A base location as `rider profile location` prints it.
struct BaseLocationOutput: Encodable, Sendable {
    let latitude: Double
    let longitude: Double
    let placeName: String?
    let updatedAt: Date?

    enum CodingKeys: String, CodingKey {
        case latitude, longitude
        case placeName = "place_name"
        case updatedAt = "updated_at"
    }

    init(_ location: BaseLocation) {
        latitude = location.latitude
        longitude = location.longitude
        placeName = location.placeName
        updatedAt = location.updatedAt
    }

    // Written out so absent values appear as `null`: scripts see the same keys every time.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
        try container.encode(placeName, forKey: .placeName)
        try container.encode(updatedAt, forKey: .updatedAt)
    }

    var lines: [String] {
        HumanFormat.block([
            ("place", placeName ?? "-"),
            ("latitude", String(latitude)),
            ("longitude", String(longitude)),
            ("updated", updatedAt.map(HumanFormat.date) ?? "-"),
        ])
    }
}
