import Foundation
import RiderDomain

extension Fixtures {
    // MARK: Sample accounts

    /// The second sample account (the one ``registration`` describes): Grace Hopper, a mentor.
    public static let otherUserID: UserID = "u_000002"

    /// Both sample accounts as users, in id order: the default account and ``otherUserID``.
    public static var sampleUsers: [FixtureJSON] {
        [user(), user(id: otherUserID.rawValue, email: "grace@example.com", displayName: "Grace Hopper",
                      riderType: "mentor")]
    }

    // MARK: Sports, base location, preferences

    /// Sports of the catalogue as (id, name), as `GET /sports` lists them.
    public static let sportCatalogue: [(id: String, name: String)] = [
        ("road", "Road cycling"), ("gravel", "Gravel"), ("mtb", "Mountain bike"),
    ]

    /// The answer to `GET /sports`.
    /// - Parameter sports: the catalogue as (id, name); ``sportCatalogue`` unless told.
    /// - Returns: the body.
    public static func sports(_ sports: [(id: String, name: String)] = sportCatalogue) -> FixtureJSON {
        ["sports": .array(sports.map { ["id": .string($0.id), "name": .string($0.name)] })]
    }

    /// One of the rider's sports.
    /// - Parameters:
    ///   - id: `id`.
    ///   - name: `name`; the catalogue's name for `id` unless told.
    ///   - level: `level`.
    /// - Returns: the body.
    public static func riderSport(id: String = "gravel", name: String? = nil, level: String = "intermediate") -> FixtureJSON {
        let name = name ?? sportCatalogue.first { $0.id == id }?.name ?? id
        return ["id": .string(id), "name": .string(name), "level": .string(level)]
    }

    /// The answer to `GET /riders/me/sports`.
    /// - Parameter sports: the rider's sports; gravel at intermediate level unless told.
    /// - Returns: the body.
    public static func riderSports(_ sports: [FixtureJSON] = [riderSport()]) -> FixtureJSON {
        ["sports": .array(sports)]
    }

    /// A base location; a `nil` place name is sent as JSON `null`.
    /// - Parameters:
    ///   - latitude: `latitude`.
    ///   - longitude: `longitude`.
    ///   - placeName: `place_name`.
    ///   - updatedAt: `updated_at`.
    /// - Returns: the body.
    public static func baseLocation(
        latitude: Double = -33.9249, longitude: Double = 18.4241, placeName: String? = "Cape Town",
        updatedAt: String = epochText
    ) -> FixtureJSON {
        ["latitude": .number(latitude), "longitude": .number(longitude),
         "place_name": placeName.map(FixtureJSON.string) ?? .null, "updated_at": .string(updatedAt)]
    }

    /// The answer to `GET /riders/me/preferences`, with the server's defaults.
    /// - Parameters:
    ///   - newsletter: `notifications.newsletter`.
    ///   - profileVisibility: `visibility.profile`.
    /// - Returns: the body.
    public static func preferences(newsletter: Bool = false, profileVisibility: String = "members") -> FixtureJSON {
        ["notifications": ["ride_invitations": true, "messages": true, "newsletter": .bool(newsletter)],
         "visibility": ["profile": .string(profileVisibility), "show_base_location": false]]
    }
}
