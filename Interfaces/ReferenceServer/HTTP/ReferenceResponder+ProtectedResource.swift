import HTTPTypes
import Hummingbird

extension ReferenceResponder {
    /// `GET /.well-known/oauth-protected-resource`: the rider API's protected resource metadata
    /// (RFC 9728 §2): its identifier (the base URL), the one authorization server whose tokens it
    /// takes (this server's issuer), the scopes it knows and how a token may be sent; with DPoP
    /// on, the proof algorithms (and, with DPoP required, that only bound tokens are taken).
    /// The API's identifier has no path, so the path-inserted location (RFC 9728 §3.1) and the
    /// root's are the same one. `GET /.well-known/oauth-protected-resource/admin` is the `/admin`
    /// resource's, the same but for its identifier (`<base URL>/admin`) and name; neither lists
    /// `rider:admin`, which a client gets by stepping up (``ProtectedResource/scopesSupported``). Public, and reusable for an hour (not at all with
    /// ``ReferenceServerConfiguration/metadataNoStore``), like the authorization server's metadata.
    func protectedResourceMetadata(_ resource: ProtectedResource) async throws -> Response {
        let origin = await store.origin
        let body = ProtectedResourceMetadataBody(
            resource: resource.identifier(origin: origin),
            authorizationServers: [origin],
            scopesSupported: resource.scopesSupported,
            bearerMethodsSupported: ["header"],
            resourceName: resource.name,
            dpopSigningAlgValuesSupported: dpop == .off ? nil : ["ES256"],
            dpopBoundAccessTokensRequired: dpop == .required ? true : nil)
        return try Responses.json(body, headers: metadataCaching)
    }

    /// The address of `resource`'s metadata, as its `401`s' challenges name it.
    func protectedResourceMetadataURL(_ resource: ProtectedResource = .api) async -> String {
        resource.metadataURL(origin: await store.origin)
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
