/// The contract's `Sport`: one entry of the catalogue.
struct SportBody: Encodable, Sendable {
    let id: String
    let name: String
}

/// The contract's `SportList`.
struct SportListBody: Encodable, Sendable {
    let sports: [SportBody]
}

/// The contract's `RiderSport`: a sport of the signed-in rider with their level.
struct RiderSportBody: Encodable, Sendable {
    let id: String
    let name: String
    let level: String

    init(_ entry: RiderSportEntry) {
        id = entry.id
        name = SportCatalogue.name(of: entry.id) ?? entry.id
        level = entry.level.rawValue
    }
}

/// The contract's `RiderSportList`.
struct RiderSportListBody: Encodable, Sendable {
    let sports: [RiderSportBody]
}
