import Foundation
import RiderApplication
import RiderDomain

extension RiderKit {
    /// The sport catalogue and the signed-in rider's sports and levels (`rider.sports`).
    ///
    /// The catalogue keeps its use case (`ListSports`: it is kept between calls for as long as the
    /// server allows); the rider's own sports are one request each.
    public struct Sports: Sendable {
        let api: APIClient
        let listSports: ListSports

        /// - Parameters:
        ///   - api: sends every request.
        ///   - catalogue: where the catalogue is kept between calls (and runs).
        ///   - clock: tells whether the kept catalogue is still fresh.
        package init(api: APIClient, catalogue: any SportCatalogueCache, clock: any Clock) {
            self.api = api
            listSports = ListSports(api: api, catalogue: catalogue, clock: clock)
        }

        /// The server's sport catalogue, reusing the kept copy while the server says it is fresh
        /// (`Cache-Control: max-age`; a day on the reference server).
        /// - Parameter reload: ask the server even when the kept catalogue is still fresh.
        /// - Returns: the catalogue; its `Cached.source` says whether the server was asked.
        /// - Throws: network errors, `RiderError.malformedResponse(_:)`. No session is needed, and
        ///   a catalogue that cannot be kept is not an error.
        public func catalogue(reload: Bool = false) async throws -> Cached<[Sport]> {
            try await listSports(reload: reload)
        }

        /// Lists the sports the signed-in rider practises, with their levels.
        /// - Returns: the rider's sports in the order they were added.
        /// - Throws: `RiderError.notSignedIn`, `RiderError.sessionExpired`, network errors,
        ///   `RiderError.malformedResponse(_:)` for a level this client does not know.
        public func mine() async throws -> [RiderSport] {
            try await api.send(API.mySports)
        }

        /// Adds a sport of the catalogue to the signed-in rider's sports, or changes its level.
        /// - Parameters:
        ///   - id: a sport of the catalogue (``catalogue(reload:)``).
        ///   - level: how well the rider rides it.
        /// - Returns: the sport as the server now holds it.
        /// - Throws: `RiderError.invalidInput(_:)` for a malformed id (nothing is sent) or a level
        ///   or count the server rejects, `RiderError.notFound(detail:)` when the catalogue has no
        ///   such sport, `RiderError.notSignedIn`, `RiderError.sessionExpired`, network errors.
        public func set(_ id: SportID, level: SportLevel) async throws -> RiderSport {
            try await api.send(API.setMySport(try id.validated(), level: level))
        }

        /// Removes a sport from the signed-in rider's sports.
        /// - Parameter id: one of the rider's sports.
        /// - Throws: `RiderError.invalidInput(_:)` for a malformed id (nothing is sent),
        ///   `RiderError.notFound(detail:)` when the rider does not have that sport,
        ///   `RiderError.notSignedIn`, `RiderError.sessionExpired`, network errors.
        public func remove(_ id: SportID) async throws {
            try await api.send(API.removeMySport(try id.validated()))
        }
    }
}
