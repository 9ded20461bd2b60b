import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("ProtectedResourceDiscovery: the authorization server from the resource's URL alone (RFC 9728)")
struct ProtectedResourceDiscoveryTests {
    typealias Refusal = ProtectedResourceDiscovery.Refusal
    static let resource = "https://api.example.test/mcp"
    static let insertedMetadata = "https://api.example.test/.well-known/oauth-protected-resource/mcp"
    static let rootMetadata = "https://api.example.test/.well-known/oauth-protected-resource"
    static let issuer = "https://id.example.test"
    static let other = "https://other-id.example.test"

    static func resourceDocument(resource: String = Self.resource, servers: [String] = [Self.issuer]) -> FixtureJSON {
        ["resource": .string(resource), "authorization_servers": .array(servers.map(FixtureJSON.string)),
         "scopes_supported": ["files:read"], "bearer_methods_supported": ["header"]]
    }

    static func serverDocument(issuer: String = Self.issuer, s256: Bool = true) -> FixtureJSON {
        var document: FixtureJSON = [
            "issuer": .string(issuer), "token_endpoint": .string(issuer + "/token"),
            "authorization_endpoint": .string(issuer + "/authorize"),
            "revocation_endpoint": .string(issuer + "/revoke"),
            "device_authorization_endpoint": .string(issuer + "/device"),
            "pushed_authorization_request_endpoint": .string(issuer + "/par"),
            "registration_endpoint": .string(issuer + "/register"),
        ]
        if s256 { document["code_challenge_methods_supported"] = ["S256"] }
        return document
    }

    struct Fixture {
        let transport = StubTransport()
        let cache = MemoryMetadataCache()
        let clock = ManualClock()

        func discovery(resource: String = ProtectedResourceDiscoveryTests.resource,
                       probe: ProtectedResourceDiscovery.Probe = .get, issuer: String? = nil) throws -> ProtectedResourceDiscovery {
            let configuration = try ProtectedResourceDiscovery.Configuration(
                resource: try #require(URL(string: resource)), probe: probe, issuer: issuer.flatMap(URL.init(string:)))
            return ProtectedResourceDiscovery(configuration: configuration, transport: transport, cache: cache, clock: clock)
        }

        /// Scripts `method url` (the whole URL: resources and servers are on different hosts).
        func stub(_ method: HTTPMethod = .get, _ url: String, _ reply: StubReply) {
            transport.stub(StubRoute("\(method) \(url)") { $0.method == method && $0.url.absoluteString == url }, with: reply)
        }

        /// The resource answers 401 naming its metadata, which names `servers`.
        func resourceNamingMetadata(servers: [String] = [ProtectedResourceDiscoveryTests.issuer]) {
            stub(.get, ProtectedResourceDiscoveryTests.resource, .problem(status: 401, headers: [
                "WWW-Authenticate": #"Bearer resource_metadata="\#(ProtectedResourceDiscoveryTests.insertedMetadata)", scope="files:read""#,
            ]))
            stub(.get, ProtectedResourceDiscoveryTests.insertedMetadata,
                 .successful(ProtectedResourceDiscoveryTests.resourceDocument(servers: servers)))
        }

        /// `issuer` publishes `document` at its RFC 8414 location.
        func server(_ issuer: String, _ document: FixtureJSON) {
            stub(.get, issuer + "/.well-known/oauth-authorization-server", .successful(document))
        }

        var urls: [String] { transport.requests.map { "\($0.method) \($0.url.absoluteString)" } }
    }

    private func refusal(_ error: RiderError?) -> Refusal? { error?.underlying as? Refusal }

    // MARK: - Where the resource's metadata is

    @Test("an MCP endpoint: an initialize POST without credentials, whose 401 names the metadata and the scope")
    func challengeOfAnMCPEndpoint() async throws {
        let fixture = Fixture()
        fixture.stub(.post, Self.resource, .problem(status: 401, headers: [
            "WWW-Authenticate": #"Bearer error="invalid_token", resource_metadata="\#(Self.insertedMetadata)", scope="files:read""#,
        ]))
        fixture.stub(.get, Self.insertedMetadata, .successful(Self.resourceDocument()))
        fixture.server(Self.issuer, Self.serverDocument())

        let discovered = try await fixture.discovery(probe: .mcpInitialize(clientName: "rider", clientVersion: "1.0")).discover()

        #expect(discovered.location == .challenge && discovered.status == 401)
        #expect(discovered.metadataURL.absoluteString == Self.insertedMetadata)
        #expect(discovered.challenge?.scope == "files:read" && discovered.challenge?.error == "invalid_token")
        #expect(discovered.metadata.scopesSupported == ["files:read"])
        #expect(discovered.authorizationServer.metadata.issuer == Self.issuer)
        #expect(fixture.urls == ["POST \(Self.resource)", "GET \(Self.insertedMetadata)",
                                 "GET \(Self.issuer)/.well-known/oauth-authorization-server"])
        let initialize = try #require(fixture.transport.requests.first)
        let body = try #require(initialize.body.flatMap { try JSONSerialization.jsonObject(with: $0) as? [String: Any] })
        #expect(body["jsonrpc"] as? String == "2.0" && body["method"] as? String == "initialize")
        #expect(initialize.headers["Content-Type"] == "application/json")
        #expect(fixture.transport.requests.allSatisfy { $0.headers["Authorization"] == nil && !$0.followsRedirects })
    }

    @Test("without a challenge: the path-inserted well-known location, then the root's")
    func wellKnownProbeOrder() async throws {
        let fixture = Fixture()
        fixture.stub(.get, Self.resource, .problem(status: 401, headers: ["WWW-Authenticate": "Bearer"]))
        fixture.stub(.get, Self.insertedMetadata, .status(404))
        fixture.stub(.get, Self.rootMetadata, .successful(Self.resourceDocument()))
        fixture.server(Self.issuer, Self.serverDocument())

        let discovered = try await fixture.discovery().discover()

        #expect(discovered.location == .root && discovered.challenge?.isScheme("Bearer") == true)
        #expect(Array(fixture.urls.prefix(3)) == ["GET \(Self.resource)", "GET \(Self.insertedMetadata)", "GET \(Self.rootMetadata)"])
    }

    @Test("a resource without a path has one well-known location; a resource that does not challenge is still probed")
    func resourceWithoutPath() async throws {
        let fixture = Fixture()
        fixture.stub(.get, "https://api.example.test", .successful(body: "hello"))
        fixture.stub(.get, Self.rootMetadata, .successful(Self.resourceDocument(resource: "https://api.example.test/")))
        fixture.server(Self.issuer, Self.serverDocument())

        let discovered = try await fixture.discovery(resource: "https://api.example.test").discover()

        #expect(discovered.location == .root && discovered.status == 200 && discovered.challenge == nil)
        #expect(ProtectedResourceDiscovery.wellKnownURLs(for: try #require(URL(string: "https://a.example/x/y/")))
            .map(\.0.absoluteString) == ["https://a.example/.well-known/oauth-protected-resource/x/y",
                                         "https://a.example/.well-known/oauth-protected-resource"])
    }

    @Test("no metadata anywhere is a configuration error naming where it looked")
    func noMetadata() async throws {
        let fixture = Fixture()
        fixture.stub(.get, Self.resource, .status(401))
        fixture.stub(.get, Self.insertedMetadata, .status(404))
        fixture.stub(.get, Self.rootMetadata, .status(404))

        let error = await #expect(throws: RiderError.self) { try await fixture.discovery().discover() }

        #expect(error?.code == .invalidConfiguration && error?.message.contains(Self.rootMetadata) == true)
    }

    // MARK: - Refusals

    @Test("metadata whose resource is not the URL asked for is refused (RFC 9728 §3.3), and no server is asked")
    func otherResource() async throws {
        let fixture = Fixture()
        fixture.stub(.get, Self.resource, .problem(status: 401, headers: [
            "WWW-Authenticate": #"Bearer resource_metadata="\#(Self.rootMetadata)""#,
        ]))
        fixture.stub(.get, Self.rootMetadata, .successful(Self.resourceDocument(resource: "https://api.example.test/")))

        let error = await #expect(throws: RiderError.self) { try await fixture.discovery().discover() }

        #expect(error?.code == .invalidConfiguration)
        #expect(refusal(error) == .otherResource(named: "https://api.example.test/"))
        #expect(fixture.transport.requests.count == 2)
    }

    @Test("the same resource spelled with another case, its default port or an empty path is the same resource")
    func equivalentSpellings() throws {
        let asked = try #require(URL(string: "https://api.example.test/mcp"))
        #expect(ProtectedResourceDiscovery.isSameResource("HTTPS://API.Example.test:443/mcp", as: asked))
        #expect(ProtectedResourceDiscovery.isSameResource("https://x.example", as: try #require(URL(string: "https://x.example/"))))
        #expect(!ProtectedResourceDiscovery.isSameResource("https://api.example.test/mcp/", as: asked))
        #expect(!ProtectedResourceDiscovery.isSameResource("https://api.example.test/MCP", as: asked))
        #expect(!ProtectedResourceDiscovery.isSameResource("https://api.example.test:8443/mcp", as: asked))
        #expect(!ProtectedResourceDiscovery.isSameResource("http://api.example.test/mcp", as: asked))
    }

    @Test("a redirect from a metadata location is refused, not followed")
    func redirect() async throws {
        let fixture = Fixture()
        fixture.stub(.get, Self.resource, .status(401))
        fixture.stub(.get, Self.insertedMetadata, .status(302, headers: ["Location": "https://evil.example/prm"]))

        let error = await #expect(throws: RiderError.self) { try await fixture.discovery().discover() }

        #expect(refusal(error) == .redirect && fixture.transport.count(.get, "/prm") == 0)
    }

    @Test("a document larger than the bound is refused")
    func tooLarge() async throws {
        let fixture = Fixture()
        fixture.stub(.get, Self.resource, .status(401))
        var document = Self.resourceDocument()
        document["padding"] = .string(String(repeating: "x", count: 70_000))
        fixture.stub(.get, Self.insertedMetadata, .successful(document))

        let error = await #expect(throws: RiderError.self) { try await fixture.discovery().discover() }

        #expect(error?.code == .malformedResponse && refusal(error) == .documentTooLarge)
    }

    @Test("a challenge naming metadata on plain http to another host is refused before any request there")
    func unusableMetadataURL() async throws {
        let fixture = Fixture()
        fixture.stub(.get, Self.resource, .problem(status: 401, headers: [
            "WWW-Authenticate": #"Bearer resource_metadata="http://api.example.test/prm""#,
        ]))

        let error = await #expect(throws: RiderError.self) { try await fixture.discovery().discover() }

        #expect(refusal(error) == .unusableMetadataURL && fixture.transport.requests.count == 1)
    }

    @Test("a resource URL on plain http to a remote host, or with a fragment, is refused before any request")
    func unusableResource() {
        for text in ["http://api.example.test/mcp", "https://api.example.test/mcp#x", "https://u:p@api.example.test"] {
            expectError(.invalidConfiguration, "\(text)") {
                _ = try ProtectedResourceDiscovery.Configuration(resource: try #require(URL(string: text)))
            }
        }
    }

    @Test("metadata naming no authorization server is refused")
    func noServers() async throws {
        let fixture = Fixture()
        fixture.resourceNamingMetadata(servers: [])

        let error = await #expect(throws: RiderError.self) { try await fixture.discovery().discover() }

        #expect(refusal(error) == .noAuthorizationServer)
    }

    @Test("an authorization server whose metadata names another issuer is passed over for the next one listed")
    func serverOfAnotherIssuer() async throws {
        let fixture = Fixture()
        fixture.resourceNamingMetadata(servers: [Self.issuer, Self.other])
        fixture.server(Self.issuer, Self.serverDocument(issuer: "https://evil.example.test"))
        fixture.server(Self.other, Self.serverDocument(issuer: Self.other))

        let discovered = try await fixture.discovery().discover()

        #expect(discovered.authorizationServer.metadata.issuer == Self.other)
        #expect(discovered.provider.configuration.issuer.absoluteString == Self.other)
    }

    @Test("when no listed server validates, the error names each and why")
    func noUsableServer() async throws {
        let fixture = Fixture()
        fixture.resourceNamingMetadata(servers: [Self.issuer, "not a url at all"])
        fixture.server(Self.issuer, Self.serverDocument(issuer: "https://evil.example.test"))

        let error = await #expect(throws: RiderError.self) { try await fixture.discovery().discover() }

        #expect(refusal(error) == .noUsableAuthorizationServer)
        #expect(error?.message.contains("https://evil.example.test") == true)
        #expect(error?.message.contains("not a url at all") == true)
    }

    @Test("on this path an authorization server must list S256: an absent list is refused too")
    func missingS256() async throws {
        let fixture = Fixture()
        fixture.resourceNamingMetadata(servers: [Self.issuer])
        fixture.server(Self.issuer, Self.serverDocument(s256: false))
        fixture.stub(.get, Self.issuer + "/.well-known/openid-configuration", .status(404))

        let error = await #expect(throws: RiderError.self) { try await fixture.discovery(issuer: Self.issuer).discover() }

        #expect(refusal(error) == .noS256(issuer: Self.issuer))
    }

    @Test("a configured issuer that the resource lists wins over the first listed")
    func configuredIssuerWins() async throws {
        let fixture = Fixture()
        fixture.resourceNamingMetadata(servers: [Self.other, Self.issuer])
        fixture.server(Self.issuer, Self.serverDocument())

        let discovered = try await fixture.discovery(issuer: Self.issuer).discover()

        #expect(discovered.authorizationServer.metadata.issuer == Self.issuer)
        #expect(!fixture.urls.contains { $0.contains("other-id") })
    }

    @Test("a configured issuer that the resource does not list is refused, and no server is asked")
    func configuredIssuerNotListed() async throws {
        let fixture = Fixture()
        fixture.resourceNamingMetadata(servers: [Self.other])

        let error = await #expect(throws: RiderError.self) { try await fixture.discovery(issuer: Self.issuer).discover() }

        #expect(error?.code == .invalidConfiguration && refusal(error) == .issuerNotListed(Self.issuer))
        #expect(error?.message.contains(Self.other) == true)
        #expect(fixture.transport.requests.count == 2)
    }

    @Test("when every listed server is unreachable, the network error comes as it is")
    func unreachableServers() async throws {
        let fixture = Fixture()
        fixture.resourceNamingMetadata(servers: [Self.issuer])
        fixture.stub(.get, Self.issuer + "/.well-known/oauth-authorization-server", .unreachable)

        let error = await #expect(throws: RiderError.self) { try await fixture.discovery().discover() }

        #expect(error?.code == .serverUnreachable)
    }
}
