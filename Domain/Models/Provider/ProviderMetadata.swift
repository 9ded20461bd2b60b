import Foundation

/// What an OAuth 2.0 authorization server says about itself (RFC 8414; OpenID Connect
/// Discovery 1.0): who it is, its endpoints and what it supports.
///
/// Only what RiderKit reads is kept. Every value came from the server, so it is untrusted text
/// until shown with care (terminal escaping) — the endpoints were checked like configured URLs
/// before a value of this type was made from them.
package struct ProviderMetadata: Hashable, Sendable, Codable {
    /// The issuer identifier, exactly as the provider spells it (`issuer`); equal, character for
    /// character, to the configured issuer (RFC 8414 §3.3).
    package var issuer: String
    /// The endpoints the provider names.
    package var endpoints: ProviderEndpoints
    /// `grant_types_supported`; `nil` when the provider did not say (RFC 8414 then implies
    /// `authorization_code` and `implicit`).
    package var grantTypesSupported: [String]?
    /// `code_challenge_methods_supported` (RFC 7636); `nil` when the provider did not say.
    package var codeChallengeMethodsSupported: [String]?
    /// `authorization_response_iss_parameter_supported` (RFC 9207): whether the authorization
    /// response carries `iss`; `false` when the provider did not say.
    package var authorizationResponseIssParameterSupported: Bool
    /// `dpop_signing_alg_values_supported` (RFC 9449 §5.1): the proof algorithms the provider
    /// takes; `nil` when it did not say (it then offers no DPoP).
    package var dpopSigningAlgValuesSupported: [String]?
    /// `require_pushed_authorization_requests` (RFC 9126 §5): whether the provider takes browser
    /// sign-ins only as pushed requests; `nil` when it did not say (then it does not).
    package var requirePushedAuthorizationRequests: Bool?
    /// `token_endpoint_auth_methods_supported` (RFC 8414 §2): how clients may authenticate;
    /// `nil` when the provider did not say (RFC 8414 then implies `client_secret_basic`).
    package var tokenEndpointAuthMethodsSupported: [String]?
    /// `registration_endpoint` (RFC 7591 §3): where a client registers itself; `nil` when the
    /// provider names none. Checked like the other endpoints.
    package var registrationEndpoint: URL?
    /// `client_id_metadata_document_supported` (OAuth Client ID Metadata Document, as the MCP
    /// authorization specification of 2025-11-25 uses it): whether the server takes an https URL
    /// naming a client metadata document as a `client_id`; `nil` when the server did not say
    /// (then it does not). Optional so metadata kept before this member existed still reads.
    package var clientIDMetadataDocumentSupported: Bool?
    /// `scopes_supported` (RFC 8414 §2): the scopes the server names; `nil` when it did not say.
    package var scopesSupported: [String]?

    /// - Parameters:
    ///   - issuer: the issuer identifier.
    ///   - endpoints: the endpoints.
    ///   - grantTypesSupported: the grant types, `nil` when not stated.
    ///   - codeChallengeMethodsSupported: the PKCE methods, `nil` when not stated.
    ///   - authorizationResponseIssParameterSupported: whether authorization responses carry `iss`.
    package init(issuer: String, endpoints: ProviderEndpoints = ProviderEndpoints(),
                grantTypesSupported: [String]? = nil, codeChallengeMethodsSupported: [String]? = nil,
                authorizationResponseIssParameterSupported: Bool = false) {
        self.issuer = issuer
        self.endpoints = endpoints
        self.grantTypesSupported = grantTypesSupported
        self.codeChallengeMethodsSupported = codeChallengeMethodsSupported
        self.authorizationResponseIssParameterSupported = authorizationResponseIssParameterSupported
    }

    /// The grant types in effect: as stated, or RFC 8414 §2's default
    /// (`authorization_code`, `implicit`) when the provider did not say.
    package var effectiveGrantTypes: [String] { grantTypesSupported ?? ["authorization_code", "implicit"] }

    /// Whether the provider offers `grantType` (`password`, `refresh_token`,
    /// `authorization_code`, `urn:ietf:params:oauth:grant-type:device_code`, …).
    /// - Parameter grantType: the `grant_type` value.
    /// - Returns: `true` when it is among ``effectiveGrantTypes``.
    package func supportsGrant(_ grantType: String) -> Bool {
        effectiveGrantTypes.contains(grantType)
    }

    /// Whether the provider accepts the PKCE method `method` (`S256`). A provider that does not
    /// list its methods is not assumed to support any.
    /// - Parameter method: the `code_challenge_method` value.
    /// - Returns: `true` when it is listed.
    package func supportsCodeChallengeMethod(_ method: String) -> Bool {
        codeChallengeMethodsSupported?.contains(method) ?? false
    }
}
