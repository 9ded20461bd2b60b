import HTTPTypes
import Hummingbird

extension ReferenceResponder {
    /// `GET /.well-known/openid-configuration` and `GET /.well-known/oauth-authorization-server`:
    /// the server's authorization server metadata (RFC 8414), the same document at both, naming
    /// only what it offers today — the token endpoint with the password, refresh-token and device
    /// code grants, the device authorization endpoint (RFC 8628) and revocation; no authorization
    /// endpoint yet. Its `issuer` is the server's base URL.
    /// Public, and reusable for an hour.
    func providerMetadata() async throws -> Response {
        let origin = await store.origin
        let body = ProviderMetadataBody(
            issuer: origin,
            tokenEndpoint: origin + "/auth/token",
            revocationEndpoint: origin + "/auth/revoke",
            deviceAuthorizationEndpoint: origin + "/oauth2/device_authorization",
            grantTypesSupported: (passwordGrant ? ["password"] : []) + ["refresh_token", TokenEndpointError.deviceCodeGrantType],
            responseTypesSupported: [],
            tokenEndpointAuthMethodsSupported: ["none"],
            revocationEndpointAuthMethodsSupported: ["none"])
        return try Responses.json(body, headers: [.cacheControl: "public, max-age=\(ProviderMetadataBody.maxAge)"])
    }
}

/// The contract's `ProviderMetadata` (RFC 8414 §2).
struct ProviderMetadataBody: Encodable, Sendable {
    /// Seconds a client may reuse the document.
    static let maxAge = 3600

    let issuer: String
    let tokenEndpoint: String
    let revocationEndpoint: String
    /// RFC 8628 §4.
    let deviceAuthorizationEndpoint: String
    let grantTypesSupported: [String]
    /// Required by RFC 8414; empty, since there is no authorization endpoint yet.
    let responseTypesSupported: [String]
    let tokenEndpointAuthMethodsSupported: [String]
    let revocationEndpointAuthMethodsSupported: [String]

    enum CodingKeys: String, CodingKey {
        case issuer
        case tokenEndpoint = "token_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case deviceAuthorizationEndpoint = "device_authorization_endpoint"
        case grantTypesSupported = "grant_types_supported"
        case responseTypesSupported = "response_types_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        case revocationEndpointAuthMethodsSupported = "revocation_endpoint_auth_methods_supported"
    }
}
