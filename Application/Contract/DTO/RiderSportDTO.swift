import Foundation
import RiderDomain

/// One of the signed-in rider's sports on the wire.
struct RiderSportDTO: Decodable, Sendable {
    var id: String
    var name: String
    var level: String

    /// - Throws: ``RiderError/malformedResponse(_:underlying:)`` for a level this client does not know.
    func toDomain() throws -> RiderSport {
        guard let level = SportLevel(rawValue: level) else {
            throw RiderError.malformedResponse("the sport '\(ProblemMapping.clip(id))' has an unknown level "
                + "'\(ProblemMapping.clip(self.level))'")
        }
        return RiderSport(sport: Sport(id: SportID(id), name: name), level: level)
    }
}

/// `GET /riders/me/sports`.
struct RiderSportListDTO: Decodable, Sendable {
    var sports: [RiderSportDTO]
}

/// The body of `POST /riders/me/sports/{id}`.
struct SportLevelDTO: Encodable, Sendable {
    var level: String
}
