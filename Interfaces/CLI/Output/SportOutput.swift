import RiderKit

/// The sport catalogue as `rider sports list` prints it.
struct SportListOutput: Encodable, Sendable {
    struct Entry: Encodable, Sendable {
        let id: String
        let name: String
    }

    let sports: [Entry]

    init(_ sports: [Sport]) {
        self.sports = sports.map { Entry(id: $0.id.rawValue, name: $0.name) }
    }

    var lines: [String] {
        sports.isEmpty ? ["The server lists no sports."] : HumanFormat.columns(sports.map { [$0.id, $0.name] })
    }
}

/// One of your sports: id, name, level.
struct RiderSportOutput: Encodable, Sendable {
    let id: String
    let name: String
    let level: String

    init(_ sport: RiderSport) {
        id = sport.id.rawValue
        name = sport.sport.name
        level = sport.level.rawValue
    }
}

/// Your sports as `rider sports mine` prints them.
struct RiderSportListOutput: Encodable, Sendable {
    let sports: [RiderSportOutput]

    init(_ sports: [RiderSport]) {
        self.sports = sports.map(RiderSportOutput.init)
    }

    var lines: [String] {
        sports.isEmpty
            ? ["You have no sports yet; add one with `rider sports add ID --level LEVEL` (ids: `rider sports list`)."]
            : HumanFormat.columns(sports.map { [$0.id, $0.name, $0.level] })
    }
}

/// What `rider sports remove` reports.
struct RemovedSportOutput: Encodable, Sendable {
    let id: String
    let removed: Bool
}
