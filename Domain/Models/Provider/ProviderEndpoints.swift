import Foundation

/// The endpoints of an OAuth 2.0 authorization server, as its metadata (RFC 8414, OpenID Connect
/// Discovery) names them or as they are configured for a server without discovery.
///
/// Every endpoint is optional: a provider names only what it offers.
public struct ProviderEndpoints: Hashable, Sendable, Codable {
    /// Where a browser signs in (`authorization_endpoint`, RFC 6749 §3.1).
    public var authorization: URL?
    /// Where tokens are issued and refreshed (`token_endpoint`, RFC 6749 §3.2).
    public var token: URL?
    /// Where a device asks for a user code (`device_authorization_endpoint`, RFC 8628).
    public var deviceAuthorization: URL?
    /// Where tokens are revoked (`revocation_endpoint`, RFC 7009).
    public var revocation: URL?
    /// Where the signed-in person's OpenID claims are read (`userinfo_endpoint`).
    public var userinfo: URL?
    /// The provider's signing keys (`jwks_uri`, RFC 7517).
    public var jwks: URL?
    /// Where a browser sign-in's request is pushed before the browser opens
    /// (`pushed_authorization_request_endpoint`, RFC 9126).
    public var pushedAuthorizationRequest: URL?

    /// - Parameters:
    ///   - authorization: the authorization endpoint.
    ///   - token: the token endpoint.
    ///   - deviceAuthorization: the device authorization endpoint.
    ///   - revocation: the revocation endpoint.
    ///   - userinfo: the userinfo endpoint.
    ///   - jwks: the JSON Web Key Set.
    ///   - pushedAuthorizationRequest: the pushed authorization request endpoint.
    public init(authorization: URL? = nil, token: URL? = nil, deviceAuthorization: URL? = nil,
                revocation: URL? = nil, userinfo: URL? = nil, jwks: URL? = nil,
                pushedAuthorizationRequest: URL? = nil) {
        self.pushedAuthorizationRequest = pushedAuthorizationRequest
        self.authorization = authorization
        self.token = token
        self.deviceAuthorization = deviceAuthorization
        self.revocation = revocation
        self.userinfo = userinfo
        self.jwks = jwks
    }

    /// These endpoints with each one `explicit` sets in its place: a configured endpoint wins
    /// over a discovered one.
    /// - Parameter explicit: the endpoints set by hand.
    /// - Returns: the merged endpoints.
    package func overridden(by explicit: ProviderEndpoints) -> ProviderEndpoints {
        ProviderEndpoints(authorization: explicit.authorization ?? authorization, token: explicit.token ?? token,
                          deviceAuthorization: explicit.deviceAuthorization ?? deviceAuthorization,
                          revocation: explicit.revocation ?? revocation, userinfo: explicit.userinfo ?? userinfo,
                          jwks: explicit.jwks ?? jwks,
                          pushedAuthorizationRequest: explicit.pushedAuthorizationRequest ?? pushedAuthorizationRequest)
    }

    /// Every endpoint that is set, by its metadata name (`token_endpoint`, …), in a fixed order.
    package var named: [(name: String, url: URL)] {
        let all: [(String, URL?)] = [
            ("authorization_endpoint", authorization), ("token_endpoint", token),
            ("device_authorization_endpoint", deviceAuthorization), ("revocation_endpoint", revocation),
            ("userinfo_endpoint", userinfo), ("jwks_uri", jwks),
            ("pushed_authorization_request_endpoint", pushedAuthorizationRequest),
        ]
        return all.compactMap { name, url in url.map { (name, $0) } }
    }

    /// Whether no endpoint is set.
    package var isEmpty: Bool { named.isEmpty }
}
