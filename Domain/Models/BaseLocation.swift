import Foundation

/// Where a rider usually starts their rides: a point on the map and, optionally, a place name.
///
/// Built through ``init(latitude:longitude:placeName:updatedAt:)``, which rejects values no map
/// has, so a `BaseLocation` is always one the server can accept.
public struct BaseLocation: Hashable, Sendable {
    package static let latitudeRange = -90.0...90.0
    package static let longitudeRange = -180.0...180.0
    package static let maximumPlaceNameLength = 100

    /// Degrees north (negative: south), WGS 84.
    public private(set) var latitude: Double
    /// Degrees east (negative: west), WGS 84.
    public private(set) var longitude: Double
    /// A name people recognise (`Cape Town`), trimmed; `nil` when none was given.
    public private(set) var placeName: String?
    /// When the server last stored it; `nil` for a location not yet saved.
    public var updatedAt: Date?

    /// - Throws: `RiderError.invalidInput(_:)` naming `latitude` (outside −90…90 or not a
    ///   number), `longitude` (outside −180…180 or not a number) and `place_name` (longer than
    ///   100 characters) — every bad field at once.
    public init(latitude: Double, longitude: Double, placeName: String? = nil, updatedAt: Date? = nil) throws {
        var problems: [FieldProblem] = []
        if !latitude.isFinite || !Self.latitudeRange.contains(latitude) {
            problems.append(FieldProblem(field: "latitude", message: "must be a number from -90 to 90"))
        }
        if !longitude.isFinite || !Self.longitudeRange.contains(longitude) {
            problems.append(FieldProblem(field: "longitude", message: "must be a number from -180 to 180"))
        }
        let name = placeName?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let name, name.count > Self.maximumPlaceNameLength {
            problems.append(FieldProblem(field: "place_name",
                                         message: "must be at most \(Self.maximumPlaceNameLength) characters long"))
        }
        guard problems.isEmpty else { throw RiderError.invalidInput(problems) }
        self.latitude = latitude
        self.longitude = longitude
        self.placeName = (name?.isEmpty ?? true) ? nil : name
        self.updatedAt = updatedAt
    }
}
