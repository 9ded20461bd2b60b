import Foundation
import RiderDomain

/// An authorization server metadata document (RFC 8414 §2; OpenID Connect Discovery 1.0 §3) as
/// the wire has it: only the members RiderKit reads. Unknown members are ignored, as both
/// specifications require.
struct ProviderMetadataDTO: Decodable, Sendable {
    var issuer: String
    var authorizationEndpoint: String?
    var tokenEndpoint: String?
    var deviceAuthorizationEndpoint: String?
    var revocationEndpoint: String?
    var userinfoEndpoint: String?
    var jwksURI: String?
    var grantTypesSupported: [String]?
    var codeChallengeMethodsSupported: [String]?
    var authorizationResponseIssParameterSupported: Bool?
    var dpopSigningAlgValuesSupported: [String]?
    var pushedAuthorizationRequestEndpoint: String?
    var requirePushedAuthorizationRequests: Bool?
    var tokenEndpointAuthMethodsSupported: [String]?
    var registrationEndpoint: String?
    var clientIDMetadataDocumentSupported: Bool?
    var scopesSupported: [String]?

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case deviceAuthorizationEndpoint = "device_authorization_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case userinfoEndpoint = "userinfo_endpoint"
        case jwksURI = "jwks_uri"
        case grantTypesSupported = "grant_types_supported"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
        case dpopSigningAlgValuesSupported = "dpop_signing_alg_values_supported"
        case authorizationResponseIssParameterSupported = "authorization_response_iss_parameter_supported"
        case pushedAuthorizationRequestEndpoint = "pushed_authorization_request_endpoint"
        case requirePushedAuthorizationRequests = "require_pushed_authorization_requests"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        case registrationEndpoint = "registration_endpoint"
        case clientIDMetadataDocumentSupported = "client_id_metadata_document_supported"
        case scopesSupported = "scopes_supported"
    }

    /// The metadata, every endpoint checked as a configured URL is.
    /// - Throws: `RiderError.invalidConfiguration(_:)` naming the first unusable endpoint.
    func toDomain() throws -> ProviderMetadata {
        func endpoint(_ value: String?, _ name: String) throws -> URL? {
            guard let value else { return nil }
            guard let url = URL(string: value) else {
                throw RiderError.invalidConfiguration("the provider's \(name) '\(ProblemMapping.clip(value))' is not a URL")
            }
            return url
        }
        let metadata = ProviderMetadata(
            issuer: issuer,
            endpoints: ProviderEndpoints(
                authorization: try endpoint(authorizationEndpoint, "authorization_endpoint"),
                token: try endpoint(tokenEndpoint, "token_endpoint"),
                deviceAuthorization: try endpoint(deviceAuthorizationEndpoint, "device_authorization_endpoint"),
                revocation: try endpoint(revocationEndpoint, "revocation_endpoint"),
                userinfo: try endpoint(userinfoEndpoint, "userinfo_endpoint"),
                jwks: try endpoint(jwksURI, "jwks_uri"),
                pushedAuthorizationRequest: try endpoint(pushedAuthorizationRequestEndpoint,
                                                         "pushed_authorization_request_endpoint")),
            grantTypesSupported: grantTypesSupported,
            codeChallengeMethodsSupported: codeChallengeMethodsSupported,
            authorizationResponseIssParameterSupported: authorizationResponseIssParameterSupported ?? false)
        var described = metadata
        described.dpopSigningAlgValuesSupported = dpopSigningAlgValuesSupported
        described.requirePushedAuthorizationRequests = requirePushedAuthorizationRequests
        described.tokenEndpointAuthMethodsSupported = tokenEndpointAuthMethodsSupported
        described.registrationEndpoint = try endpoint(registrationEndpoint, "registration_endpoint")
        described.clientIDMetadataDocumentSupported = clientIDMetadataDocumentSupported
        described.scopesSupported = scopesSupported
        try ProviderDiscovery.check(described.endpoints)
        try ProviderDiscovery.check(registration: described.registrationEndpoint)
        return described
    }
}
