import Foundation

/// Which well-known locations ``ProviderDiscovery`` asks for an issuer's metadata, in which order,
/// and whether it merges what several answer.
package enum MetadataProbeOrder: Hashable, Sendable {
    /// OpenID Connect Discovery (appended to the issuer's path), then RFC 8414 (inserted before
    /// it); the first document that answers is the metadata, and the RFC 8414 one is asked too
    /// only when the first names no revocation endpoint, to take it from there. What RiderKit
    /// does for an issuer it is configured with.
    case openIDConnectFirst
    /// The MCP authorization specification's order (2025-11-25): RFC 8414 inserted, OpenID
    /// Connect inserted, OpenID Connect appended (for an issuer without a path: RFC 8414, then
    /// OpenID Connect). The first document that answers is the metadata; when it lacks an endpoint
    /// another location's document of the same issuer names (revocation, device authorization,
    /// registration, pushed authorization requests), that location is asked too and the endpoint
    /// taken from it — django-oauth-toolkit's OpenID document, for one, names no revocation
    /// endpoint while its RFC 8414 document does.
    case authorizationServerFirst
}
