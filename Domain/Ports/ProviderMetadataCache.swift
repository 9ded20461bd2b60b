import Foundation

/// Keeps providers' metadata between runs, by issuer, so discovery is not a request on every
/// start.
///
/// The metadata is public and derived: an adapter may lose it at any time, and a failure to read
/// or write it never fails a sign-in — the metadata is then fetched again.
package protocol ProviderMetadataCache: Sendable {
    /// - Parameter issuer: the issuer identifier, exactly as configured.
    /// - Returns: the kept metadata of that issuer, fresh or not, or `nil` when there is none (or
    ///   it cannot be read).
    func load(issuer: String) async -> StoredProviderMetadata?

    /// Replaces the kept metadata of `stored.metadata.issuer`.
    /// - Parameter stored: the metadata and its expiry.
    /// - Throws: ``RiderError/storage(_:underlying:)``.
    func save(_ stored: StoredProviderMetadata) async throws

    /// Forgets the kept metadata of `issuer`.
    /// - Parameter issuer: the issuer identifier.
    /// - Throws: ``RiderError/storage(_:underlying:)``.
    func remove(issuer: String) async throws
    /// The issuer last chosen for a protected resource (RFC 9728), so a process that only
    /// refreshes or reads its session need not ask the resource again.
    /// - Parameter resource: the resource's URL, exactly as configured.
    /// - Returns: the issuer, or `nil` when none is kept (or it cannot be read).
    func issuer(ofResource resource: String) async -> String?
    /// Keeps `issuer` as the one chosen for `resource`.
    /// - Throws: ``RiderError/storage(_:underlying:)``.
    func saveIssuer(_ issuer: String, ofResource resource: String) async throws
}

extension ProviderMetadataCache {
    /// A cache that keeps no resources' issuers: every process asks the resource again.
    package func issuer(ofResource resource: String) async -> String? { nil }
    package func saveIssuer(_ issuer: String, ofResource resource: String) async throws {}
}
