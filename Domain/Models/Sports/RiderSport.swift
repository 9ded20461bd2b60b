import Foundation

/// A sport the signed-in rider practises, with their level.
public struct RiderSport: Identifiable, Hashable, Sendable {
    public var sport: Sport
    public var level: SportLevel

    public var id: SportID { sport.id }

    public init(sport: Sport, level: SportLevel) {
        self.sport = sport
        self.level = level
    }
}
