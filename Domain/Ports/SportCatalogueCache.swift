import Foundation

/// Keeps the server's sport catalogue between runs, for as long as the server allows.
///
/// The catalogue is public and derived: an adapter may lose it at any time, and a failure to
/// read or write it never fails a request — the catalogue is then fetched again.
public protocol SportCatalogueCache: Sendable {
    /// - Returns: the kept catalogue, or `nil` when there is none (or it cannot be read).
    func load() async -> StoredSportCatalogue?

    /// Replaces the kept catalogue.
    /// - Throws: ``RiderError/storage(_:underlying:)``.
    func save(_ catalogue: StoredSportCatalogue) async throws

    /// Forgets the kept catalogue.
    /// - Throws: ``RiderError/storage(_:underlying:)``.
    func remove() async throws
}
