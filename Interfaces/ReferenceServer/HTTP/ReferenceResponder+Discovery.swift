import HTTPTypes
import Hummingbird

extension ReferenceResponder {
    /// `GET /.well-known/openid-configuration` and `GET /.well-known/oauth-authorization-server`:
    /// the server's authorization server metadata (RFC 8414), the same document at both: the
    /// authorization endpoint (code with PKCE S256, `iss` in its answers, RFC 9207), the token
    /// endpoint with its grants, the device authorization endpoint (RFC 8628) and revocation.
    /// With DPoP on (`--dpop`), `dpop_signing_alg_values_supported` (RFC 9449 §5.1) names ES256;
    /// with PAR on (`--par`), `pushed_authorization_request_endpoint` (RFC 9126 §5) names
    /// `/oauth2/par`, and `require_pushed_authorization_requests` is true when it is required;
    /// with registration open (the default), `registration_endpoint` (RFC 7591) names
    /// `/oauth2/register`.
    /// Its `issuer` is the server's base URL.
    /// Public, and reusable for an hour (not at all with ``ReferenceServerConfiguration/metadataNoStore``).
    func providerMetadata() async throws -> Response {
        let origin = await store.origin
        let body = ProviderMetadataBody(
            issuer: origin,
            authorizationEndpoint: origin + "/oauth2/authorize",
            tokenEndpoint: origin + "/auth/token",
            revocationEndpoint: origin + "/auth/revoke",
            jwksURI: origin + "/jwks.json",
            userinfoEndpoint: origin + "/userinfo",
            deviceAuthorizationEndpoint: origin + "/oauth2/device_authorization",
            grantTypesSupported: (passwordGrant ? ["password"] : [])
                + ["authorization_code", "refresh_token", TokenEndpointError.deviceCodeGrantType, "client_credentials"],
            responseTypesSupported: ["code"],
            codeChallengeMethodsSupported: ["S256"],
            authorizationResponseIssParameterSupported: true,
            tokenEndpointAuthMethodsSupported: ["none"] + (clientPublicKeyPEM == nil ? [] : ["private_key_jwt"]),
            idTokenSigningAlgValuesSupported: ["ES256"],
            subjectTypesSupported: ["public"],
            // Every scope either resource names: what a client may ask this server for.
            scopesSupported: ["openid", "email", "profile", ProtectedResource.adminScope],
            revocationEndpointAuthMethodsSupported: ["none"],
            dpopSigningAlgValuesSupported: dpop == .off ? nil : ["ES256"],
            pushedAuthorizationRequestEndpoint: pushedAuthorization == .off ? nil : origin + "/oauth2/par",
            requirePushedAuthorizationRequests: pushedAuthorization == .required ? true : nil,
            registrationEndpoint: clientRegistration == .open ? origin + Self.registrationPath : nil)
        return try Responses.json(body, headers: metadataCaching)
    }

    /// How clients may keep a metadata document: an hour, or not at all with `metadataNoStore`.
    var metadataCaching: HTTPFields {
        metadataNoStore ? Self.noStore : [.cacheControl: "public, max-age=\(ProviderMetadataBody.maxAge)"]
    }

    /// Counts a request for the metadata document at its path (``ReferenceStore/Stats/metadataRequests``),
    /// then answers it with `document`.
    func countingMetadataRequest(_ request: Request, _ document: () async throws -> Response) async throws -> Response {
        await store.recordMetadataRequest(path: request.uri.path)
        return try await document()
    }
}

/// The contract's `ProviderMetadata` (RFC 8414 §2).
struct ProviderMetadataBody: Encodable, Sendable {
    /// Seconds a client may reuse the document.
    static let maxAge = 3600

    let issuer: String
    let authorizationEndpoint: String
    let tokenEndpoint: String
    let revocationEndpoint: String
    /// OpenID Connect Discovery §3.
    let jwksURI: String
    let userinfoEndpoint: String
    /// RFC 8628 §4.
    let deviceAuthorizationEndpoint: String
    let grantTypesSupported: [String]
    let responseTypesSupported: [String]
    /// RFC 7636 §6.2.1: S256 only (RFC 9700 §2.1.1).
    let codeChallengeMethodsSupported: [String]
    /// RFC 9207 §3.
    let authorizationResponseIssParameterSupported: Bool
    let tokenEndpointAuthMethodsSupported: [String]
    let idTokenSigningAlgValuesSupported: [String]
    let subjectTypesSupported: [String]
    let scopesSupported: [String]
    let revocationEndpointAuthMethodsSupported: [String]
    /// RFC 9449 §5.1; left out while DPoP is off.
    let dpopSigningAlgValuesSupported: [String]?
    /// RFC 9126 §5; left out while PAR is off.
    let pushedAuthorizationRequestEndpoint: String?
    /// RFC 9126 §5; left out unless PAR is required.
    let requirePushedAuthorizationRequests: Bool?
    /// RFC 8414 §2 (RFC 7591); left out while registration is off.
    let registrationEndpoint: String?

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case jwksURI = "jwks_uri"
        case userinfoEndpoint = "userinfo_endpoint"
        case idTokenSigningAlgValuesSupported = "id_token_signing_alg_values_supported"
        case subjectTypesSupported = "subject_types_supported"
        case scopesSupported = "scopes_supported"
        case deviceAuthorizationEndpoint = "device_authorization_endpoint"
        case grantTypesSupported = "grant_types_supported"
        case responseTypesSupported = "response_types_supported"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
        case authorizationResponseIssParameterSupported = "authorization_response_iss_parameter_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        case revocationEndpointAuthMethodsSupported = "revocation_endpoint_auth_methods_supported"
        case dpopSigningAlgValuesSupported = "dpop_signing_alg_values_supported"
        case pushedAuthorizationRequestEndpoint = "pushed_authorization_request_endpoint"
        case requirePushedAuthorizationRequests = "require_pushed_authorization_requests"
        case registrationEndpoint = "registration_endpoint"
    }
}
