import Foundation
import RiderDomain

/// Learns who signs in to a protected resource from the resource's URL alone (RFC 9728, as the
/// MCP authorization specification of 2025-11-25 uses it): the resource's metadata, and the
/// authorization server it names whose own metadata validates.
///
/// 1. One unauthenticated request to the resource (a `GET`, or for an MCP endpoint a JSON-RPC
///    `initialize` `POST`). A `WWW-Authenticate` challenge naming `resource_metadata` (§5.1) says
///    where the metadata is.
/// 2. Else `/.well-known/oauth-protected-resource` with the resource's path inserted (§3.1),
///    then at the root, the next asked only when one answers 4xx.
/// 3. The document is used only when its `resource` is the URL asked for (§3.3) and it names
///    at least one authorization server. No redirect is followed, and a document over
///    ``Configuration/maximumDocumentSize`` is refused.
/// 4. The authorization server is the configured issuer when the document lists it (one it does
///    not list is refused), else the first listed whose metadata — asked in
///    ``MetadataProbeOrder/authorizationServerFirst`` order, checked against its issuer
///    (RFC 8414 §3.3) — offers PKCE with S256.
///
/// Every request goes without credentials through the transport given, which must not follow
/// redirects itself. Each authorization server's metadata is kept per issuer, as
/// ``ProviderDiscovery`` keeps it.
package struct ProtectedResourceDiscovery: Sendable {
    /// The resource and how to ask it.
    package struct Configuration: Hashable, Sendable {
        /// The protected resource's URL, as the metadata's `resource` must name it.
        package var resource: URL
        /// The unauthenticated request that may draw a challenge.
        package var probe: Probe
        /// The issuer configured for this program, which must be among the resource's
        /// authorization servers; `nil` to take the first that validates.
        package var issuer: URL?
        /// How long one request may take.
        package var requestTimeout: TimeInterval = 15
        /// The largest metadata document read, in bytes.
        package var maximumDocumentSize = 64 * 1024

        /// - Parameters:
        ///   - resource: the resource's URL.
        ///   - probe: a `GET` unless told.
        ///   - issuer: the configured issuer, if any.
        /// - Throws: `RiderError.invalidConfiguration(_:)` when `resource` is not https (or
        ///   plain http to a loopback address), or has a user name, password or fragment.
        package init(resource: URL, probe: Probe = .get, issuer: URL? = nil) throws {
            try APIConfiguration.validate(resource)
            guard resource.fragment == nil else {
                throw RiderError.invalidConfiguration("the resource \(resource) must not have a fragment (RFC 9728 §1.2)")
            }
            self.resource = resource
            self.probe = probe
            self.issuer = issuer
        }
    }

    /// The first, unauthenticated request to the resource.
    package enum Probe: Hashable, Sendable {
        /// `GET` the resource.
        case get
        /// `POST` a JSON-RPC `initialize` request, as an MCP client's first request is
        /// (MCP's streamable HTTP transport), naming the client.
        case mcpInitialize(clientName: String, clientVersion: String)
    }

    /// Where the resource's metadata was found.
    package enum Location: String, Hashable, Sendable {
        /// At the `resource_metadata` of the resource's challenge.
        case challenge
        /// At the well-known location with the resource's path inserted.
        case pathInserted = "path-inserted"
        /// At the well-known location at the root of the resource's origin.
        case root
    }

    /// Why a resource's metadata or its authorization servers were refused; the `underlying` of
    /// the `RiderError` thrown, for a program (or a test) to tell the cases apart.
    package enum Refusal: Error, Hashable, Sendable {
        /// The document's `resource` is not the URL asked for (RFC 9728 §3.3).
        case otherResource(named: String)
        /// The document names no authorization server.
        case noAuthorizationServer
        /// The configured issuer is not among the resource's authorization servers.
        case issuerNotListed(String)
        /// No listed authorization server's metadata validated.
        case noUsableAuthorizationServer
        /// The authorization server does not list S256 in `code_challenge_methods_supported`.
        case noS256(issuer: String)
        /// A metadata request was answered with a redirect.
        case redirect
        /// A metadata document is larger than ``Configuration/maximumDocumentSize``.
        case documentTooLarge
        /// The challenge's `resource_metadata` is not a URL RiderKit requests.
        case unusableMetadataURL
    }

    /// What was learnt.
    package struct Discovered: Sendable {
        /// The resource's metadata.
        package var metadata: ProtectedResourceMetadata
        /// Where it was read.
        package var metadataURL: URL
        /// How that place was found.
        package var location: Location
        /// The status the first request was answered with.
        package var status: Int
        /// The resource's `Bearer` (else `DPoP`, else first) challenge, when it sent one: its
        /// `scope` and `error` say what a sign-in should ask for.
        package var challenge: AuthenticationChallenge?
        /// The chosen authorization server's metadata.
        package var authorizationServer: ProviderDiscovery.Discovered
        /// The chosen authorization server's discovery, to ask it again.
        package var provider: ProviderDiscovery

        package init(metadata: ProtectedResourceMetadata, metadataURL: URL, location: Location, status: Int,
                     challenge: AuthenticationChallenge?, authorizationServer: ProviderDiscovery.Discovered,
                     provider: ProviderDiscovery) {
            self.metadata = metadata
            self.metadataURL = metadataURL
            self.location = location
            self.status = status
            self.challenge = challenge
            self.authorizationServer = authorizationServer
            self.provider = provider
        }
    }

    /// What a discovery asks with, kept by the composition root for discoveries made later.
    package struct Environment: Sendable {
        /// Sends without credentials and without following redirects.
        package var transport: any HTTPTransport
        /// Where authorization server metadata is kept, per issuer.
        package var cache: any ProviderMetadataCache
        package var clock: any Clock

        package init(transport: any HTTPTransport, cache: any ProviderMetadataCache, clock: any Clock) {
            self.transport = transport
            self.cache = cache
            self.clock = clock
        }
    }

    package let configuration: Configuration
    private let transport: any HTTPTransport
    private let cache: any ProviderMetadataCache
    private let clock: any Clock

    /// - Parameters:
    ///   - configuration: the resource and how to ask it.
    ///   - transport: sends every request, without credentials; it must not follow redirects.
    ///   - cache: where authorization server metadata is kept, per issuer.
    ///   - clock: tells whether kept metadata is fresh.
    package init(configuration: Configuration, transport: any HTTPTransport, cache: any ProviderMetadataCache,
                 clock: any Clock) {
        self.configuration = configuration
        self.transport = transport
        self.cache = cache
        self.clock = clock
    }

    /// - Parameters:
    ///   - configuration: the resource and how to ask it.
    ///   - environment: the transport, cache and clock to ask with.
    package init(configuration: Configuration, environment: Environment) {
        self.init(configuration: configuration, transport: environment.transport, cache: environment.cache,
                  clock: environment.clock)
    }

    /// Finds the resource's metadata and its authorization server.
    /// - Parameter reload: ask the authorization server even when its kept metadata is fresh.
    /// - Returns: both documents and how they were found.
    /// - Throws: `RiderError.invalidConfiguration(_:)` for each refusal above, its ``Refusal`` as
    ///   the underlying error; `RiderError.malformedResponse(_:)` for a document that is not
    ///   metadata; network errors as they come.
    package func discover(reload: Bool = false) async throws -> Discovered {
        let first = try await send(probeRequest())
        let challenges = AuthenticationChallenge.challenges(in: first)
        let named = challenges.first { ($0.isScheme("Bearer") || $0.isScheme("DPoP")) && $0.resourceMetadata != nil }
            ?? challenges.first { $0.resourceMetadata != nil }
        let challenge = named ?? challenges.first { $0.isScheme("Bearer") } ?? challenges.first { $0.isScheme("DPoP") }
            ?? challenges.first
        let (metadata, url, location) = try await resourceMetadata(namedBy: named?.resourceMetadata)
        let (provider, server) = try await authorizationServer(of: metadata, reload: reload)
        return Discovered(metadata: metadata, metadataURL: url, location: location, status: first.status,
                          challenge: challenge, authorizationServer: server, provider: provider)
    }

    // MARK: - The resource's metadata

    /// The metadata at the challenge's `resource_metadata`, else at the well-known locations.
    private func resourceMetadata(namedBy text: String?) async throws
        -> (ProtectedResourceMetadata, URL, Location) {
        if let text {
            guard let url = URL(string: text), url.fragment == nil, (try? APIConfiguration.validate(url)) != nil else {
                throw refusal(.unusableMetadataURL, "the resource's challenge names its metadata at "
                    + "'\(ProblemMapping.clip(text))', which is not an https URL (or http to this machine) without "
                    + "user name, password or fragment")
            }
            let response = try await send(get(url))
            guard response.isSuccess else { throw try failure(of: response, at: url) }
            return (try check(response, from: url), url, .challenge)
        }
        var tried: [String] = []
        for (url, location) in Self.wellKnownURLs(for: configuration.resource) {
            let response = try await send(get(url))
            if response.isSuccess { return (try check(response, from: url), url, location) }
            guard (400..<500).contains(response.status), response.status != 429 else {
                throw try failure(of: response, at: url)
            }
            tried.append(url.absoluteString)
        }
        throw RiderError.invalidConfiguration("the resource \(configuration.resource.absoluteString) names no "
            + "protected resource metadata in a WWW-Authenticate challenge and publishes none (tried "
            + tried.joined(separator: " and ") + ")")
    }

    /// Where the resource's metadata may be without a challenge (RFC 9728 §3.1): the well-known
    /// path inserted before the resource's path (without a terminating `/`), then at the root;
    /// one URL when the resource has no path.
    /// - Parameter resource: the resource's URL.
    /// - Returns: the URLs, in the order asked.
    package static func wellKnownURLs(for resource: URL) -> [(URL, Location)] {
        guard var components = URLComponents(url: resource, resolvingAgainstBaseURL: false) else { return [] }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        components.query = nil
        components.fragment = nil
        var root = components
        root.percentEncodedPath = "/.well-known/oauth-protected-resource"
        var inserted = components
        inserted.percentEncodedPath = "/.well-known/oauth-protected-resource" + path
        let urls: [(URL?, Location)] = path.isEmpty ? [(root.url, .root)] : [(inserted.url, .pathInserted), (root.url, .root)]
        return urls.compactMap { url, location in url.map { ($0, location) } }
    }

    /// The document in `response`, checked: not too large, metadata, for this resource, naming
    /// an authorization server.
    private func check(_ response: HTTPResponse, from url: URL) throws -> ProtectedResourceMetadata {
        guard response.body.count <= configuration.maximumDocumentSize else {
            throw RiderError.malformedResponse("the protected resource metadata at \(url.path) is larger than "
                + "\(configuration.maximumDocumentSize) bytes", underlying: Refusal.documentTooLarge)
        }
        let metadata = try ContractCoding.decode(ProtectedResourceMetadataDTO.self, from: response.body,
                                                 what: "the protected resource metadata at \(url.path)").toDomain()
        guard Self.isSameResource(metadata.resource, as: configuration.resource) else {
            throw refusal(.otherResource(named: metadata.resource), "the protected resource metadata at \(url.absoluteString) "
                + "is for the resource '\(ProblemMapping.clip(metadata.resource))', not "
                + "'\(configuration.resource.absoluteString)' that was asked; it is only used for the resource it names "
                + "(RFC 9728 §3.3)")
        }
        guard !metadata.authorizationServers.isEmpty else {
            throw refusal(.noAuthorizationServer, "the protected resource metadata of \(configuration.resource.absoluteString) "
                + "names no authorization server (authorization_servers)")
        }
        return metadata
    }

    /// Whether `named` identifies the same resource as `asked`: the same text, or the same URL
    /// once scheme and host are lower-cased, a default port dropped and an empty path read as
    /// `/` (RFC 3986 §6.2.2–6.2.3, which make these one resource).
    package static func isSameResource(_ named: String, as asked: URL) -> Bool {
        if named == asked.absoluteString { return true }
        func normalized(_ components: URLComponents) -> [String?] {
            let scheme = components.scheme?.lowercased()
            let port = components.port.flatMap { port -> Int? in
                (scheme == "https" && port == 443) || (scheme == "http" && port == 80) ? nil : port
            }
            let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            return [scheme, components.percentEncodedHost?.lowercased(), port.map(String.init), path,
                    components.percentEncodedQuery, components.percentEncodedUser, components.fragment]
        }
        guard let named = URLComponents(string: named),
              let asked = URLComponents(url: asked, resolvingAgainstBaseURL: false) else { return false }
        return normalized(named) == normalized(asked)
    }

    // MARK: - The authorization server

    /// The configured issuer when listed, else the first listed whose metadata validates.
    private func authorizationServer(of metadata: ProtectedResourceMetadata, reload: Bool) async throws
        -> (ProviderDiscovery, ProviderDiscovery.Discovered) {
        if let issuer = configuration.issuer {
            guard metadata.authorizationServers.contains(issuer.absoluteString) else {
                throw refusal(.issuerNotListed(issuer.absoluteString), "the resource \(configuration.resource.absoluteString) "
                    + "does not take tokens of the configured issuer \(issuer.absoluteString); it names "
                    + metadata.authorizationServers.map { ProblemMapping.clip($0) }.joined(separator: ", ")
                    + " (set the issuer to one of them, or leave it unset)")
            }
            return try await validated(issuer, reload: reload)
        }
        var failures: [(issuer: String, error: RiderError)] = []
        for text in metadata.authorizationServers {
            do {
                guard let issuer = URL(string: text) else {
                    throw RiderError.invalidConfiguration("it is not a URL")
                }
                return try await validated(issuer, reload: reload)
            } catch let error as RiderError {
                failures.append((text, error))
            }
        }
        if failures.allSatisfy({ $0.error.isTransient }), let first = failures.first { throw first.error }
        throw refusal(.noUsableAuthorizationServer, "none of the authorization servers of the resource "
            + "\(configuration.resource.absoluteString) can be used: "
            + failures.map { "\(ProblemMapping.clip($0.issuer)): \($0.error.message)" }.joined(separator: "; "))
    }

    /// `issuer`'s metadata, asked in the MCP order and merged, when it offers PKCE with S256.
    private func validated(_ issuer: URL, reload: Bool) async throws -> (ProviderDiscovery, ProviderDiscovery.Discovered) {
        var settings = try ProviderDiscovery.Configuration(issuer: issuer, requestTimeout: configuration.requestTimeout)
        settings.probeOrder = .authorizationServerFirst
        let provider = ProviderDiscovery(configuration: settings, transport: transport, cache: cache, clock: clock)
        let discovered = try await provider.metadata(reload: reload)
        guard discovered.metadata.supportsCodeChallengeMethod("S256") else {
            throw refusal(.noS256(issuer: issuer.absoluteString), "the authorization server \(issuer.absoluteString) "
                + "does not list S256 in code_challenge_methods_supported, which signing in to a protected resource "
                + "requires (MCP authorization, RFC 9700)")
        }
        return (provider, discovered)
    }

    // MARK: - Requests

    /// The first request: `GET`, or a JSON-RPC `initialize` for an MCP endpoint.
    private func probeRequest() throws -> HTTPRequest {
        switch configuration.probe {
        case .get:
            return get(configuration.resource)
        case .mcpInitialize(let name, let version):
            struct Initialize: Encodable {
                struct Params: Encodable {
                    struct ClientInfo: Encodable { var name: String; var version: String }
                    struct Capabilities: Encodable {}
                    var protocolVersion = "2025-11-25"
                    var capabilities = Capabilities()
                    var clientInfo: ClientInfo
                }
                var jsonrpc = "2.0"
                var id = 1
                var method = "initialize"
                var params: Params
            }
            let body = try ContractCoding.encode(Initialize(params: .init(clientInfo: .init(name: name, version: version))))
            return HTTPRequest(method: .post, url: configuration.resource,
                               headers: ["Content-Type": "application/json",
                                         "Accept": "application/json, text/event-stream"],
                               body: body, timeout: configuration.requestTimeout, followsRedirects: false)
        }
    }

    private func get(_ url: URL) -> HTTPRequest {
        HTTPRequest(method: .get, url: url, headers: ["Accept": "application/json"],
                    timeout: configuration.requestTimeout, followsRedirects: false)
    }

    private func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await transport.send(request)
    }

    /// A metadata request's failure: a redirect is refused, the rest mapped as problems are.
    private func failure(of response: HTTPResponse, at url: URL) throws -> RiderError {
        if (300..<400).contains(response.status) {
            return refusal(.redirect, "the protected resource metadata at \(url.absoluteString) redirects elsewhere; "
                + "RiderKit reads it only where the resource says it is (RFC 9728 §3.3)")
        }
        return ProblemMapping.error(for: response)
    }

    private func refusal(_ reason: Refusal, _ message: String) -> RiderError {
        RiderError.invalidConfiguration(message, underlying: reason)
    }
}
