import Foundation
import RiderDomain

/// A sport of the catalogue on the wire.
struct SportDTO: Decodable, Sendable {
    var id: String
    var name: String

    func toDomain() -> Sport {
        Sport(id: SportID(id), name: name)
    }
}

/// `GET /sports`: the catalogue.
struct SportListDTO: Decodable, Sendable {
    var sports: [SportDTO]
}
