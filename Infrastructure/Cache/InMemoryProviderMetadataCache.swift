import Foundation
import RiderDomain

/// Keeps providers' metadata in memory, for one process.
public actor InMemoryProviderMetadataCache: ProviderMetadataCache {
    private var stored: [String: StoredProviderMetadata]

    /// - Parameter stored: metadata to start with.
    public init(_ stored: [StoredProviderMetadata] = []) {
        self.stored = Dictionary(stored.map { ($0.metadata.issuer, $0) }, uniquingKeysWith: { $1 })
    }

    public func load(issuer: String) async -> StoredProviderMetadata? { stored[issuer] }

    public func save(_ metadata: StoredProviderMetadata) async throws {
        stored[metadata.metadata.issuer] = metadata
    }

    public func remove(issuer: String) async throws { stored[issuer] = nil }
}
