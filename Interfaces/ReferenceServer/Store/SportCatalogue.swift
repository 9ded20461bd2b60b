/// The reference server's fixed catalogue of sports.
enum SportCatalogue {
    /// Ids and names, in the order `GET /sports` lists them.
    static let all: [(id: String, name: String)] = [
        ("road", "Road cycling"),
        ("gravel", "Gravel"),
        ("mtb", "Mountain bike"),
        ("cyclocross", "Cyclocross"),
        ("bmx", "BMX"),
        ("track", "Track cycling"),
        ("touring", "Touring"),
        ("e-bike", "E-bike"),
    ]

    /// How long a client may reuse the catalogue: one day.
    static let maxAge = 86_400

    /// The name of the sport with `id`, if the catalogue has it.
    static func name(of id: String) -> String? {
        all.first { $0.id == id }?.name
    }
}

/// Levels a rider may have in a sport.
enum SportLevel: String, Sendable, CaseIterable {
    case beginner
    case intermediate
    case expert
}

/// One of a rider's sports as the store keeps it.
struct RiderSportEntry: Sendable, Equatable {
    let id: String
    var level: SportLevel
}
