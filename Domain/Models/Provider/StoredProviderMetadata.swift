import Foundation

/// A provider's metadata as kept between runs, with how long it may be reused.
package struct StoredProviderMetadata: Hashable, Sendable, Codable {
    package var metadata: ProviderMetadata
    /// When it was downloaded.
    package var storedAt: Date
    /// Until when it may be reused without asking the provider.
    package var expiresAt: Date

    /// - Parameters:
    ///   - metadata: the metadata.
    ///   - storedAt: when it was downloaded.
    ///   - expiresAt: until when it may be reused.
    package init(metadata: ProviderMetadata, storedAt: Date, expiresAt: Date) {
        self.metadata = metadata
        self.storedAt = storedAt
        self.expiresAt = expiresAt
    }

    /// Whether it may be reused at `now`: stored no later than `now` (a clock set back does not
    /// make it last forever) and not yet expired.
    /// - Parameter now: the current instant.
    /// - Returns: whether it is fresh.
    package func isFresh(at now: Date) -> Bool {
        storedAt <= now && now < expiresAt
    }
}
