import Foundation
import RiderDomain

/// Keeps providers' metadata in memory, for one process.
package actor InMemoryProviderMetadataCache: ProviderMetadataCache {
    private var stored: [String: StoredProviderMetadata]

    /// - Parameter stored: metadata to start with.
    package init(_ stored: [StoredProviderMetadata] = []) {
        self.stored = Dictionary(stored.map { ($0.metadata.issuer, $0) }, uniquingKeysWith: { $1 })
    }

    package func load(issuer: String) async -> StoredProviderMetadata? { stored[issuer] }

    package func save(_ metadata: StoredProviderMetadata) async throws {
        stored[metadata.metadata.issuer] = metadata
    }

    package func remove(issuer: String) async throws { stored[issuer] = nil }

    private var issuers: [String: String] = [:]

    package func issuer(ofResource resource: String) async -> String? { issuers[resource] }

    package func saveIssuer(_ issuer: String, ofResource resource: String) async throws { issuers[resource] = issuer }
}
