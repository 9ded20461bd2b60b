import Foundation

/// What an OAuth 2.0 protected resource says about itself (RFC 9728 §2): its identifier, the
/// authorization servers whose tokens it takes, and how it takes them.
///
/// Only what RiderKit reads is kept. Every value came from the resource, so it is untrusted text
/// until shown with care (terminal escaping).
package struct ProtectedResourceMetadata: Hashable, Sendable, Codable {
    /// `resource`: the resource identifier, equal to the URL it was asked for (RFC 9728 §3.3).
    package var resource: String
    /// `authorization_servers`: issuer identifiers, in the resource's order.
    package var authorizationServers: [String]
    /// `scopes_supported`; `nil` when the resource did not say.
    package var scopesSupported: [String]?
    /// `bearer_methods_supported` (`header`, `body`, `query`); `nil` when not stated.
    package var bearerMethodsSupported: [String]?
    /// `dpop_signing_alg_values_supported` (RFC 9449 §5.2); `nil` when not stated.
    package var dpopSigningAlgValuesSupported: [String]?
    /// `dpop_bound_access_tokens_required`: whether the resource takes DPoP-bound tokens only.
    package var dpopBoundAccessTokensRequired: Bool
    /// `resource_name`, for people; `nil` when not given.
    package var resourceName: String?
    /// `resource_documentation`; `nil` when not given.
    package var resourceDocumentation: String?

    /// - Parameters:
    ///   - resource: the resource identifier.
    ///   - authorizationServers: the issuers, in order.
    ///   - scopesSupported: the scopes, `nil` when not stated.
    ///   - bearerMethodsSupported: how tokens may be sent, `nil` when not stated.
    ///   - dpopSigningAlgValuesSupported: the DPoP algorithms, `nil` when not stated.
    ///   - dpopBoundAccessTokensRequired: whether only DPoP-bound tokens are taken.
    ///   - resourceName: the name for people.
    ///   - resourceDocumentation: where the resource is documented.
    package init(resource: String, authorizationServers: [String], scopesSupported: [String]? = nil,
                 bearerMethodsSupported: [String]? = nil, dpopSigningAlgValuesSupported: [String]? = nil,
                 dpopBoundAccessTokensRequired: Bool = false, resourceName: String? = nil,
                 resourceDocumentation: String? = nil) {
        self.resource = resource
        self.authorizationServers = authorizationServers
        self.scopesSupported = scopesSupported
        self.bearerMethodsSupported = bearerMethodsSupported
        self.dpopSigningAlgValuesSupported = dpopSigningAlgValuesSupported
        self.dpopBoundAccessTokensRequired = dpopBoundAccessTokensRequired
        self.resourceName = resourceName
        self.resourceDocumentation = resourceDocumentation
    }
}
