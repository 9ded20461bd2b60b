import Foundation
import RiderDomain

/// Lists the server's sport catalogue, reusing the kept copy while the server says it is fresh
/// (`Cache-Control: max-age`; a day on the reference server).
package struct ListSports: Sendable {
    let api: APIClient
    let catalogue: any SportCatalogueCache
    let clock: any Clock

    /// - Parameters:
    ///   - api: fetches the catalogue (a public route: no session needed).
    ///   - catalogue: where the catalogue is kept between calls (and runs).
    ///   - clock: tells whether the kept copy is still fresh.
    package init(api: APIClient, catalogue: any SportCatalogueCache, clock: any Clock) {
        self.api = api
        self.catalogue = catalogue
        self.clock = clock
    }

    /// - Parameter reload: ask the server even when the kept catalogue is still fresh.
    /// - Returns: the catalogue; its `Cached.source` says whether the server was asked.
    /// - Throws: network errors, `RiderError.malformedResponse(_:)`. No session is needed, and
    ///   a catalogue that cannot be kept is not an error.
    package func callAsFunction(reload: Bool = false) async throws -> Cached<[Sport]> {
        if !reload, let kept = await catalogue.load(), clock.now < kept.expiresAt, kept.storedAt <= clock.now {
            return Cached(value: kept.sports, storedAt: kept.storedAt, source: .cache)
        }
        let response = try await api.send(API.sports)
        let now = clock.now
        if let maxAge = response.maxAge, maxAge > 0 {
            // Kept data is derived and public: failing to keep it must not fail the listing.
            try? await catalogue.save(StoredSportCatalogue(sports: response.value, storedAt: now,
                                                           expiresAt: now.addingTimeInterval(maxAge)))
        } else {
            try? await catalogue.remove()
        }
        return Cached(value: response.value, storedAt: now, source: .network)
    }
}
