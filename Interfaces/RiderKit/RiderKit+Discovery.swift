import Foundation
import RiderApplication
import RiderDomain
import RiderInfrastructure
import RiderOpenIDConnect

extension RiderKit {
    /// The issuer's metadata (endpoints, grant types, PKCE methods), read on first need and kept
    /// on disk; `nil` when no issuer is configured.
    package var provider: ProviderDiscovery? { authorizationServer.discovery }

    /// Where `configuration` sends token and revocation requests: with an issuer, the endpoints
    /// its metadata names (read through `transport`, kept in the provider metadata cache), each
    /// explicit setting winning; otherwise the API configuration's paths.
    static func authorizationServer(for configuration: Configuration, transport: any HTTPTransport,
                                    clock: any Clock, cache: any ProviderMetadataCache) -> AuthorizationServer {
        let discovery = configuration.discovery.map {
            ProviderDiscovery(configuration: $0, transport: transport, cache: cache, clock: clock)
        }
        let assertions = configuration.clientKeyFile.map { file in
            ClientAssertions(signer: JWTKitClientAssertionSigner(keyFile: file, read: {
                do { return try PrivateFile.read(file) } catch let error as VaultError { throw error.riderError }
            }), clock: clock)
        }
        var server = AuthorizationServer(configuration: configuration.api, discovery: discovery,
                                         explicit: configuration.endpoints, clientAssertions: assertions)
        let environment = ProtectedResourceDiscovery.Environment(transport: transport, cache: cache, clock: clock)
        server.resourceDiscovery = environment
        if let resource = configuration.api.resource,
           var asked = try? ProtectedResourceDiscovery.Configuration(resource: resource, probe: configuration.resourceProbe,
                                                                     issuer: configuration.discovery?.issuer) {
            asked.requestTimeout = configuration.api.requestTimeout
            server.resourceAuthority = ProtectedResourceAuthority(
                discovery: ProtectedResourceDiscovery(configuration: asked, environment: environment),
                environment: environment)
            server.registration = configuration.clientRegistration(transport: transport, clock: clock)
        }
        return server
    }

    /// Who signs in to the protected resource at `resource` (RFC 9728): its metadata and the
    /// authorization server chosen from it, the configured issuer when there is one (it must be
    /// listed). Asks through the same network steps and metadata cache as issuer discovery.
    /// - Parameters:
    ///   - resource: the resource's URL, as its metadata must name it.
    ///   - probe: the first, unauthenticated request: a `GET`, or an MCP `initialize`.
    /// - Returns: the discovery, to `discover()` with.
    /// - Throws: `RiderError.invalidConfiguration(_:)` for a resource URL RiderKit would not
    ///   send to, or a RiderKit wired by hand (``live(configuration:)`` sets the way to ask).
    package func protectedResource(_ resource: URL, probe: ProtectedResourceDiscovery.Probe = .get) throws
        -> ProtectedResourceDiscovery {
        guard let environment = authorizationServer.resourceDiscovery else {
            throw RiderError.invalidConfiguration("discovery from a protected resource needs RiderKit.live(configuration:)")
        }
        var configuration = try ProtectedResourceDiscovery.Configuration(resource: resource, probe: probe,
                                                                         issuer: provider?.configuration.issuer)
        configuration.requestTimeout = api.requestTimeout
        return ProtectedResourceDiscovery(configuration: configuration, environment: environment)
    }
}

extension RiderKit.Configuration {
    /// How a program signing in to a protected resource without a configured client id gets one
    /// (a client id metadata document, else RFC 7591 registration at the resource's authorization
    /// server), kept per authorization server in the state folder — in memory for a memory vault
    /// or a replay. `nil` when a client id is configured.
    func clientRegistration(transport: any HTTPTransport, clock: any Clock) -> ClientRegistration? {
        guard api.clientID == nil else { return nil }
        let program = ClientRegistration.Program(
            clientName: identity.program.map { "\($0) (RiderKit)" } ?? "RiderKit",
            softwareID: "org.riderkit", softwareVersion: RequestIdentity.libraryVersion)
        guard var asked = try? ClientRegistration.Configuration(clientIDMetadataURL: clientIDMetadataURL, program: program)
        else { return nil }
        asked.requestTimeout = api.requestTimeout
        // Where the provider offers device sign-in, the client may use it too (rider login --device).
        asked.wantsDeviceCode = true
        // A provider that compares redirect URIs port and all gets the port rider listens on.
        asked.redirectPort = listenAddresses.first.flatMap { $0.port == 0 ? nil : $0.port }
        let store: any ClientRegistrationStore
        switch (vault, recording) {
        case (.memory, _), (_, .replay?): store = InMemoryClientRegistrationStore()
        default: store = FileClientRegistrationStore(root: FileClientRegistrationStore.defaultRoot(in: directories))
        }
        return ClientRegistration(configuration: asked, transport: transport, store: store, clock: clock)
    }

    /// Where provider metadata is kept: beside the user cache (`$XDG_CACHE_HOME/rider/<issuer>/
    /// provider.json`), or in memory when the cache is, and for a replay (whose clock is the
    /// recording's, so it answers the metadata request it recorded).
    func makeProviderMetadataCache() -> any ProviderMetadataCache {
        if case .replay = recording { return InMemoryProviderMetadataCache() }
        switch cache.storage {
        case .memory: return InMemoryProviderMetadataCache()
        case .sqlite: return FileProviderMetadataCache(root: FileProviderMetadataCache.defaultRoot(in: directories))
        }
    }
}

extension VaultFactory {
    /// The same vaults bound to `api`'s token endpoint: the discovered one, once an issuer's
    /// metadata is known, so sessions are saved and loaded under the same binding.
    /// - Parameter api: the API configuration with its token endpoint resolved.
    /// - Returns: the vault factory for that binding.
    package func bound(to api: APIConfiguration) -> VaultFactory {
        VaultFactory(copying: self, binding: SessionBinding(apiOrigin: api.origin,
                                                             tokenEndpointOrigin: api.tokenEndpointOrigin))
    }

    /// The vaults of `server` once its token endpoint is known (at once without discovery).
    /// - Parameter server: where token requests go.
    /// - Returns: the vault factory bound to the resolved token endpoint.
    /// - Throws: what resolving the token endpoint throws.
    package func resolved(by server: AuthorizationServer) async throws -> VaultFactory {
        guard server.needsDiscovery else { return self }
        return bound(to: try await server.resolvedEndpoints())
    }

    /// The same vaults for another server, bound as its account list records (`rider session list`
    /// opens every server's).
    /// - Parameter binding: the server and where its tokens come from.
    package func forServer(_ binding: SessionBinding) -> VaultFactory {
        VaultFactory(copying: self, binding: binding, origin: binding.apiOrigin)
    }

    private init(copying other: VaultFactory, binding: SessionBinding, origin: String? = nil) {
        self.origin = origin ?? other.origin
        self.binding = binding
        choice = other.choice
        directories = other.directories
        passphrase = other.passphrase
        keyringTimeout = other.keyringTimeout
        unlockRetention = other.unlockRetention
        logger = other.logger
        warnings = other.warnings
    }
}
