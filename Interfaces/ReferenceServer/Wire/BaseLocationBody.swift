/// The contract's `BaseLocation`.
struct BaseLocationBody: Encodable, Sendable {
    let latitude: Double
    let longitude: Double
    let placeName: String?
    let updatedAt: String

    init(_ location: StoredBaseLocation) {
        latitude = location.latitude
        longitude = location.longitude
        placeName = location.placeName
        updatedAt = WireCoding.timestamp(location.updatedAt)
    }

    enum CodingKeys: String, CodingKey {
        case latitude, longitude
        case placeName = "place_name"
        case updatedAt = "updated_at"
    }

    /// Written by hand so a missing place name is `null`, not an absent key.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
        try container.encode(placeName, forKey: .placeName)
        try container.encode(updatedAt, forKey: .updatedAt)
    }
}
