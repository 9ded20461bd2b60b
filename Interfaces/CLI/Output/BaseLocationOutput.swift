import Foundation
import RiderKit

/// A base location as `rider profile location` prints it.
struct BaseLocationOutput: Encodable, Sendable {
    let latitude: Double
    let longitude: Double
    @Nullable var placeName: String?
    @Nullable var updatedAt: Date?

    init(_ location: BaseLocation) {
        latitude = location.latitude
        longitude = location.longitude
        placeName = location.placeName
        updatedAt = location.updatedAt
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
