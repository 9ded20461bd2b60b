import Foundation
import RiderDomain

/// Keeps the sport catalogue in memory, for one process.
package actor InMemorySportCatalogueCache: SportCatalogueCache {
    private var stored: StoredSportCatalogue?

    package init(_ stored: StoredSportCatalogue? = nil) { self.stored = stored }

    package func load() async -> StoredSportCatalogue? { stored }
    package func save(_ catalogue: StoredSportCatalogue) async throws { stored = catalogue }
    package func remove() async throws { stored = nil }
}
