import Foundation
import RiderDomain

/// The sport catalogue as `sports.json` holds it.
struct SportCatalogueRecord: Codable, Sendable {
    struct Entry: Codable, Sendable {
        var id: String
        var name: String
    }

    /// Bumped when the layout changes; another version is ignored (and fetched again).
    static let currentVersion = 1

    var version: Int
    var storedAt: Date
    var expiresAt: Date
    var sports: [Entry]

    enum CodingKeys: String, CodingKey {
        case version, sports
        case storedAt = "stored_at"
        case expiresAt = "expires_at"
    }

    init(_ catalogue: StoredSportCatalogue) {
        version = Self.currentVersion
        storedAt = catalogue.storedAt
        expiresAt = catalogue.expiresAt
        sports = catalogue.sports.map { Entry(id: $0.id.rawValue, name: $0.name) }
    }

    func toDomain() -> StoredSportCatalogue? {
        guard version == Self.currentVersion else { return nil }
        return StoredSportCatalogue(sports: sports.map { Sport(id: SportID($0.id), name: $0.name) },
                                    storedAt: storedAt, expiresAt: expiresAt)
    }
}
