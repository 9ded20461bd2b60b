import Foundation
import RiderDomain

/// Where the session's token and revocation requests go: the configured paths, or — with an
/// issuer — the endpoints its metadata names, each explicit setting winning over discovery.
///
/// Resolved on first need rather than when RiderKit is built, so building stays synchronous and
/// a program that never signs in or refreshes never asks the provider.
package struct AuthorizationServer: Sendable {
    /// The API configuration as configured (paths relative to the API, or absolute URLs).
    package let configuration: APIConfiguration
    /// Reads the issuer's metadata; `nil` without an issuer.
    package let discovery: ProviderDiscovery?
    /// The endpoints set explicitly, which win over the discovered ones.
    package let explicit: ProviderEndpoints
    /// Signs `private_key_jwt` assertions; `nil` when the program has no client key.
    package let clientAssertions: ClientAssertions?
    /// What discovering from a protected resource's URL asks with (the discovery transport, the
    /// metadata cache, the clock); `nil` when the program wired RiderKit by hand.
    package var resourceDiscovery: ProtectedResourceDiscovery.Environment?
    /// The protected resource sign-ins are for, when its metadata names the authorization server
    /// (RFC 9728): then its authorization server is the provider — the configured issuer must be
    /// among those it lists — and its scope is asked for where none is configured. `nil`: the
    /// configured issuer, if any, is the provider.
    package var resourceAuthority: ProtectedResourceAuthority?
    /// How this program gets a client id where none is configured (a client id metadata
    /// document, else RFC 7591 registration, kept per authorization server); `nil`: a client id
    /// must be configured.
    package var registration: ClientRegistration?

    /// - Parameters:
    ///   - configuration: the API configuration.
    ///   - discovery: the issuer's metadata, when an issuer is configured.
    ///   - explicit: the endpoints set explicitly.
    ///   - clientAssertions: the client's assertion signer, for `private_key_jwt`.
    package init(configuration: APIConfiguration, discovery: ProviderDiscovery? = nil,
                 explicit: ProviderEndpoints = ProviderEndpoints(), clientAssertions: ClientAssertions? = nil) {
        self.configuration = configuration
        self.discovery = discovery
        self.explicit = explicit
        self.clientAssertions = clientAssertions
    }

    /// Whether resolving needs the provider's metadata: an issuer is configured and the token or
    /// revocation endpoint is not set explicitly.
    package var needsDiscovery: Bool {
        (discovery != nil || resourceAuthority != nil) && (explicit.token == nil || explicit.revocation == nil)
    }

    /// Whether there is a provider to discover at all: an issuer, or a resource naming one.
    package var hasProvider: Bool { discovery != nil || resourceAuthority != nil }

    /// The provider's metadata reader: the protected resource's authorization server, learnt
    /// from the resource, else the configured issuer's; `nil` with neither.
    /// - Throws: what ``ProtectedResourceAuthority/discovered()`` throws.
    package func provider() async throws -> ProviderDiscovery? {
        guard let resourceAuthority else { return discovery }
        return try await resourceAuthority.provider()
    }

    /// ``configuration`` with the token and revocation endpoints resolved — those set explicitly,
    /// else the discovered ones, as absolute URLs — and the client this program registered where
    /// none is configured (``registeredClient()``). Without an issuer or a resource, no request
    /// is made. When the metadata names no revocation endpoint, the configured `revokePath` stays.
    /// - Returns: the configuration to build token and revocation requests with.
    /// - Throws: what `ProviderDiscovery.metadata(reload:)` and registration throw;
    ///   `RiderError.invalidConfiguration(_:)` when neither the metadata nor the configuration
    ///   names a token endpoint.
    package func resolvedConfiguration() async throws -> APIConfiguration {
        try await resolved(with: try await registeredClient())
    }

    /// The endpoints resolved, and `client`'s identity where one was registered.
    private func resolved(with client: RegisteredClient?) async throws -> APIConfiguration {
        var resolved = try await resolvedEndpoints()
        if let client {
            resolved.clientID = client.clientID
            resolved.clientSecret = client.clientSecret
            resolved.clientAuthentication = client.clientAuthentication
        }
        return resolved
    }

    /// ``resolvedConfiguration()`` as a new sign-in asks with it: where no scope is configured,
    /// the scope the protected resource asks for (``ProtectedResourceAuthority/scope()``), with
    /// `openid` before it when the provider names that scope and the client may receive id_tokens
    /// (a registered client as registered; a configured one where the provider publishes signing
    /// keys) — so the account is named by its id_token, a resource having no account endpoint —
    /// and a step-up's scope (``stepUpScope``) added. Refreshes ask for no scope of their own:
    /// they keep the grant's (RFC 6749 §6).
    /// - Throws: what ``resolvedConfiguration()`` and resource discovery throw.
    package func signInConfiguration() async throws -> APIConfiguration {
        let registered = try await registeredClient()
        var resolved = try await resolved(with: registered)
        if resolved.scope == nil, let resourceAuthority {
            resolved.scope = try await resourceAuthority.scope()
            if !resolved.requestsOpenID, let metadata = try await provider()?.metadata().metadata,
               metadata.scopesSupported?.contains("openid") == true {
                // A configured client of an OpenID provider (one with signing keys) may get an
                // id_token too; a registered one as its registration says.
                if registered?.mayReceiveIDTokens ?? (configuration.clientID != nil && metadata.endpoints.jwks != nil) {
                    resolved.scope = Self.union(["openid"], resolved.scope)
                }
            }
        }
        if let stepUp = Self.stepUpScope { resolved.scope = Self.union(resolved.scope, stepUp) }
        return resolved
    }

    /// The scope a protected resource asked for, which the sign-in running in this task asks for
    /// as well (a step-up after `insufficient_scope`); `nil` outside one.
    @TaskLocal package static var stepUpScope: String?

    /// Space-separated scopes `first`, then those of `second` not among them.
    package static func union(_ first: String?, _ second: String?) -> String? {
        union((first ?? "").split(separator: " ").map(String.init), second)
    }

    private static func union(_ first: [String], _ second: String?) -> String? {
        var scopes = first
        for scope in (second ?? "").split(separator: " ").map(String.init) where !scopes.contains(scope) {
            scopes.append(scope)
        }
        return scopes.isEmpty ? nil : scopes.joined(separator: " ")
    }

    /// ``configuration`` with only the token and revocation endpoints resolved: what binds a
    /// session to its servers, without registering anything.
    /// - Throws: as ``resolvedConfiguration()``, but never for registration.
    package func resolvedEndpoints() async throws -> APIConfiguration {
        var resolved = configuration
        if let token = explicit.token { resolved.tokenPath = token.absoluteString }
        if let revocation = explicit.revocation { resolved.revokePath = revocation.absoluteString }
        guard needsDiscovery, let discovery = try await provider() else { return resolved }
        let endpoints = try await discovery.metadata().metadata.endpoints.overridden(by: explicit)
        guard let token = endpoints.token else {
            throw RiderError.invalidConfiguration("the provider \(discovery.configuration.issuer) names no token "
                + "endpoint in its metadata; set token_path to the token endpoint's URL")
        }
        resolved.tokenPath = token.absoluteString
        if let revocation = endpoints.revocation { resolved.revokePath = revocation.absoluteString }
        return resolved
    }

    /// The client this program registered with the provider (or names by a metadata document),
    /// where no client id is configured: `nil` when one is, or without a provider or a way to
    /// register.
    /// - Throws: what `ClientRegistration.client(for:)` throws; what discovery throws.
    package func registeredClient() async throws -> RegisteredClient? {
        guard configuration.clientID == nil, let registration, let discovery = try await provider() else { return nil }
        return try await registration.client(for: try await discovery.metadata().metadata)
    }

    /// Forgets the client registered with the provider, after it said it does not know it
    /// (`invalid_client`), so the next sign-in registers again. Nothing for a configured client.
    package func forgetRegisteredClient() async {
        guard configuration.clientID == nil, let registration, let discovery = try? await provider() else { return }
        try? await registration.forget(issuer: discovery.configuration.issuer.absoluteString)
    }

    /// Why a password sign-in is pointless, when the issuer's metadata lists its grant types and
    /// the password grant is not among them (RFC 9700 advises providers against it); `nil`
    /// without an issuer, with a token endpoint set explicitly, or when the provider did not list
    /// its grants (then the token endpoint decides).
    /// - Returns: the refusal, an `invalidConfiguration` error naming the sign-in the provider
    ///   does offer (its remedy says which, for a front end to name its own command).
    /// - Throws: what discovery throws.
    package func passwordGrantRefusal() async throws -> RiderError? {
        guard explicit.token == nil, let discovery = try await provider() else { return nil }
        let metadata = try await discovery.metadata().metadata
        guard let grants = metadata.grantTypesSupported, !grants.contains("password") else { return nil }
        let browser = grants.contains("authorization_code"), deviceCode = grants.contains(Self.deviceCodeGrant)
        let ways = [(browser, "with the browser"), (deviceCode, "with a device code")].filter(\.0).map(\.1)
        let refusal = RiderError.invalidConfiguration(
            "the provider \(discovery.configuration.issuer.absoluteString) does not offer sign-in with a password; "
                + (ways.isEmpty ? "it offers no sign-in this RiderKit supports" : "sign in " + ways.joined(separator: " or ")))
        return ways.isEmpty ? refusal : refusal.suggesting(.signInWithoutPassword(browser: browser, deviceCode: deviceCode))
    }

    /// Whether the provider — and the protected resource signed in to, if any — take DPoP proofs
    /// signed as RiderKit signs them (ES256, RFC 9449 §5.1):
    /// `false` without an issuer, whose metadata would say, and with a token endpoint set
    /// explicitly (then the provider is not asked; set DPoP to required to use it there).
    /// - Throws: what discovery throws.
    package func offersDPoP() async throws -> Bool {
        guard explicit.token == nil, let discovery = try await provider(),
              try await discovery.metadata().metadata.dpopSigningAlgValuesSupported?.contains("ES256") ?? false
        else { return false }
        // Tokens for a protected resource are bound only where it says it takes the proofs too
        // (RFC 9728's dpop_signing_alg_values_supported): a bearer-only resource would refuse them.
        guard let resourceAuthority else { return true }
        return try await resourceAuthority.discovered().metadata.dpopSigningAlgValuesSupported?.contains("ES256") ?? false
    }

    /// The device authorization grant's `grant_type` (RFC 8628 §3.4).
    package static let deviceCodeGrant = "urn:ietf:params:oauth:grant-type:device_code"

    /// The configuration to revoke tokens with (RFC 7009), or `nil` when there is nowhere to: an
    /// issuer whose metadata names no revocation endpoint, and none set explicitly. Without an
    /// issuer the configured `revokePath` is used, as it always was.
    /// - Throws: what ``resolvedConfiguration()`` throws.
    package func revocationConfiguration() async throws -> APIConfiguration? {
        let resolved = try await resolvedConfiguration()
        guard explicit.revocation == nil, let discovery = try await provider() else { return resolved }
        return try await discovery.metadata().metadata.endpoints.revocation == nil ? nil : resolved
    }

    /// The configuration to revoke `session`'s tokens with, once its revocation endpoint is found
    /// to be where the session was issued: the origin it recorded at sign-in
    /// (``Session/revocationOrigin``), or — for a session that recorded none — its API's or token
    /// endpoint's origin, to which the vault has already bound it. A stored token is sent to no
    /// endpoint the session was not issued with, however the configuration changed since.
    /// - Parameter session: the session whose tokens are to be revoked.
    /// - Returns: the configuration, or `nil` when there is nowhere to revoke.
    /// - Throws: `RiderError.storage(_:)` when the revocation endpoint is on another origin than
    ///   the session's (nothing is sent); what ``revocationConfiguration()`` throws.
    package func revocationConfiguration(for session: Session) async throws -> APIConfiguration? {
        guard let resolved = try await revocationConfiguration() else { return nil }
        let endpoint = try resolved.url(for: resolved.revokePath)
        let target = RedirectMiddleware.origin(of: endpoint)
        let bound = session.revocationOrigin.map { [$0] } ?? [resolved.origin, resolved.tokenEndpointOrigin]
        guard bound.contains(where: { URL(string: $0).map(RedirectMiddleware.origin(of:)) == target }) else {
            let issued = session.revocationOrigin.map { "its revocation endpoint on \($0)" }
                ?? "no revocation endpoint beside \(Set(bound).sorted().joined(separator: " and "))"
            throw RiderError.storage("the session was issued with \(issued), but the revocation endpoint now "
                + "configured is on \(APIConfiguration.origin(of: endpoint)); its tokens were not sent there")
        }
        return resolved
    }

    /// The origin of the revocation endpoint a session signed in now is issued with, recorded with
    /// it (``Session/revocationOrigin``); `nil` when there is none.
    package func revocationOrigin() async -> String? {
        guard let resolved = try? await revocationConfiguration(),
              let endpoint = try? resolved.url(for: resolved.revokePath) else { return nil }
        return APIConfiguration.origin(of: endpoint)
    }

    /// The device authorization endpoint (RFC 8628): set explicitly, else the issuer's.
    /// - Throws: `RiderError.invalidConfiguration(_:)` when neither names one (the provider
    ///   offers no device sign-in, or no issuer is configured); what discovery throws.
    package func deviceAuthorizationEndpoint() async throws -> URL {
        if let explicit = explicit.deviceAuthorization { return explicit }
        // A sign-in asks the resource afresh: the servers it names may have changed.
        _ = try await resourceAuthority?.discovered()
        let discovery = try await provider()
        if let discovery, let endpoint = try await discovery.metadata().metadata.endpoints.deviceAuthorization {
            return endpoint
        }
        throw RiderError.invalidConfiguration(discovery == nil
            ? "device sign-in needs the provider's device authorization endpoint: set issuer (or "
                + "device_authorization_endpoint)"
            : "the provider \(discovery?.configuration.issuer.absoluteString ?? "") offers no device sign-in "
                + "(its metadata names no device_authorization_endpoint); sign in another way")
    }

    /// Where a browser sign-in starts, and what its answer must show of the provider.
    package struct BrowserSignIn: Sendable {
        /// The authorization endpoint.
        package var endpoint: URL
        /// The issuer the answer's `iss` must name; `nil` without discovery.
        package var issuer: String?
        /// Whether the provider promised `iss` in its answers (RFC 9207).
        package var issuerIsRequired: Bool
        /// Where the request is pushed before the browser opens (RFC 9126); `nil` when it goes
        /// whole in the browser's address.
        package var pushEndpoint: URL? = nil
    }

    /// The authorization endpoint (set explicitly, else the issuer's) and the issuer checks.
    /// - Throws: `RiderError.invalidConfiguration(_:)` when there is no authorization endpoint,
    ///   or the provider's metadata rules the flow out (no `authorization_code` grant, PKCE
    ///   methods listed without `S256` — RFC 9700 §2.1.1 wants S256); what discovery throws.
    package func browserSignIn() async throws -> BrowserSignIn {
        // A sign-in asks the resource afresh: the servers it names may have changed.
        _ = try await resourceAuthority?.discovered()
        guard let discovery = try await provider() else {
            guard let endpoint = explicit.authorization else {
                throw RiderError.invalidConfiguration("browser sign-in needs the provider's authorization endpoint: "
                    + "set issuer (or authorization_endpoint)")
            }
            return BrowserSignIn(endpoint: endpoint, issuer: nil, issuerIsRequired: false,
                                 pushEndpoint: try pushEndpoint(named: explicit.pushedAuthorizationRequest, required: false,
                                                                by: "the configuration"))
        }
        let metadata = try await discovery.metadata().metadata
        let issuer = discovery.configuration.issuer.absoluteString
        guard let endpoint = explicit.authorization ?? metadata.endpoints.authorization else {
            throw RiderError.invalidConfiguration("the provider \(issuer) offers no browser sign-in (its metadata "
                + "names no authorization_endpoint); sign in another way")
        }
        guard metadata.supportsGrant("authorization_code") else {
            throw RiderError.invalidConfiguration("the provider \(issuer) does not offer the authorization code grant "
                + "that browser sign-in uses")
        }
        if metadata.codeChallengeMethodsSupported != nil, !metadata.supportsCodeChallengeMethod("S256") {
            throw RiderError.invalidConfiguration("the provider \(issuer) does not accept PKCE with S256, which "
                + "RiderKit requires for browser sign-in (RFC 9700)")
        }
        return BrowserSignIn(endpoint: endpoint, issuer: metadata.issuer,
                             issuerIsRequired: metadata.authorizationResponseIssParameterSupported,
                             pushEndpoint: try pushEndpoint(
                                named: explicit.pushedAuthorizationRequest ?? metadata.endpoints.pushedAuthorizationRequest,
                                required: metadata.requirePushedAuthorizationRequests ?? false,
                                by: "the provider \(issuer)"))
    }

    /// Where a browser sign-in pushes its request, as the configuration's ``APIConfiguration/pushedAuthorization``
    /// and the provider decide: `endpoint` unless pushing is off; `nil` when there is none and
    /// neither side requires one.
    /// - Throws: `RiderError.invalidConfiguration(_:)` when one side requires pushed requests and
    ///   the other rules them out — no endpoint, or pushing turned off.
    private func pushEndpoint(named endpoint: URL?, required providerRequires: Bool, by provider: String) throws -> URL? {
        switch configuration.pushedAuthorization {
        case .off:
            guard !providerRequires else {
                throw RiderError.invalidConfiguration("\(provider) takes browser sign-ins only as pushed authorization "
                    + "requests (RFC 9126), and pushing them is turned off (pushedAuthorization)")
            }
            return nil
        case .auto where endpoint == nil && !providerRequires:
            return nil
        case .auto, .required:
            guard let endpoint else {
                throw RiderError.invalidConfiguration("browser sign-in must push its request (RFC 9126), "
                    + (providerRequires ? "as \(provider) requires" : "as configured (pushedAuthorization)")
                    + ", and \(provider) names no pushed_authorization_request_endpoint")
            }
            return endpoint
        }
    }

    /// What checking an OpenID Connect sign-in needs of the provider.
    package struct OpenID: Sendable {
        /// The issuer an id_token's `iss` must name.
        package var issuer: String
        /// The provider's signing keys (`jwks_uri`), if it names them.
        package var keySet: URL?
        /// Its userinfo endpoint, if it names one.
        package var userinfo: URL?
    }

    /// The issuer, key set and userinfo endpoint (each explicit setting winning), or `nil`
    /// without an issuer, when nothing can be checked against one.
    /// - Throws: what discovery throws.
    package func openID() async throws -> OpenID? {
        guard let discovery = try await provider() else { return nil }
        let metadata = try await discovery.metadata().metadata
        let endpoints = metadata.endpoints.overridden(by: explicit)
        return OpenID(issuer: metadata.issuer, keySet: endpoints.jwks, userinfo: endpoints.userinfo)
    }
}
