import HTTPTypes
import Hummingbird

extension ReferenceResponder {
    /// Where the rider API's protected resource metadata is (RFC 9728 §3.1). The API's resource
    /// identifier is the server's base URL, which has no path, so the path-inserted location and
    /// the root's are the same one.
    static let protectedResourcePath = "/.well-known/oauth-protected-resource"

    /// `GET /.well-known/oauth-protected-resource`: the rider API's protected resource metadata
    /// (RFC 9728 §2): its identifier (the base URL), the one authorization server whose tokens it
    /// takes (this server's issuer), the scopes it knows and how a token may be sent; with DPoP
    /// on, the proof algorithms (and, with DPoP required, that only bound tokens are taken).
    /// Public, and reusable for an hour, like the authorization server's metadata.
    func protectedResourceMetadata() async throws -> Response {
        let origin = await store.origin
        let body = ProtectedResourceMetadataBody(
            resource: origin,
            authorizationServers: [origin],
            scopesSupported: ["openid", "email", "profile"],
            bearerMethodsSupported: ["header"],
            resourceName: "Rider API (reference server)",
            dpopSigningAlgValuesSupported: dpop == .off ? nil : ["ES256"],
            dpopBoundAccessTokensRequired: dpop == .required ? true : nil)
        return try Responses.json(body, headers: [.cacheControl: "public, max-age=\(ProviderMetadataBody.maxAge)"])
    }

    /// The address of the rider API's metadata, as a `401`'s challenges name it.
    func protectedResourceMetadataURL() async -> String {
        await store.origin + Self.protectedResourcePath
    }
}

/// The contract's `ProtectedResourceMetadata` (RFC 9728 §2).
struct ProtectedResourceMetadataBody: Encodable, Sendable {
    let resource: String
    let authorizationServers: [String]
    let scopesSupported: [String]
    let bearerMethodsSupported: [String]
    let resourceName: String
    /// Left out while DPoP is off.
    let dpopSigningAlgValuesSupported: [String]?
    /// Left out unless DPoP is required.
    let dpopBoundAccessTokensRequired: Bool?

    enum CodingKeys: String, CodingKey {
        case resource
        case authorizationServers = "authorization_servers"
        case scopesSupported = "scopes_supported"
        case bearerMethodsSupported = "bearer_methods_supported"
        case resourceName = "resource_name"
        case dpopSigningAlgValuesSupported = "dpop_signing_alg_values_supported"
        case dpopBoundAccessTokensRequired = "dpop_bound_access_tokens_required"
    }
}
