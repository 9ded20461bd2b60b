import Foundation
import RiderDomain

/// Keeps the sport catalogue in memory, for one process.
public actor InMemorySportCatalogueCache: SportCatalogueCache {
    private var stored: StoredSportCatalogue?

    public init(_ stored: StoredSportCatalogue? = nil) { self.stored = stored }

    public func load() async -> StoredSportCatalogue? { stored }
    public func save(_ catalogue: StoredSportCatalogue) async throws { stored = catalogue }
    public func remove() async throws { stored = nil }
}
