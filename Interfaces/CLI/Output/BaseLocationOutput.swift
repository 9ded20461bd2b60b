import Foundation
import RiderKit

/// A base location as `rider profile location` prints it. With none set, `--json` prints the
/// same keys, each `null` (as every other output writes an absent value), not a bare `null` a
/// script would have to tell from an object.
struct BaseLocationOutput: Encodable, Sendable {
    @Nullable var latitude: Double?
    @Nullable var longitude: Double?
    @Nullable var placeName: String?
    @Nullable var updatedAt: Date?

    init(_ location: BaseLocation?) {
        latitude = location?.latitude
        longitude = location?.longitude
        placeName = location?.placeName
        updatedAt = location?.updatedAt
    }

    /// Whether a location is set: it always has both coordinates.
    var isSet: Bool { latitude != nil && longitude != nil }

    var lines: [String] {
        HumanFormat.block([
            ("place", placeName ?? "-"),
            ("latitude", latitude.map { String($0) } ?? "-"),
            ("longitude", longitude.map { String($0) } ?? "-"),
            ("updated", updatedAt.map(HumanFormat.date) ?? "-"),
        ])
    }
}
