import Foundation
import RiderApplication
import RiderDomain
import RiderKitTesting
import Testing
import TestSupport

/// Signing in to a protected resource named by its URL alone: its metadata (RFC 9728) names the
/// authorization server, its challenge the scope, and every request for tokens names the resource
/// (RFC 8707) — the refreshes of a session the resource it was issued for, whatever is configured
/// later.
@Suite("Sign-in to a protected resource: its authorization server, its scope, RFC 8707's resource")
struct ResourceSignInTests {
    static let resource = "https://api.example.test/mcp"
    static let metadata = "https://api.example.test/.well-known/oauth-protected-resource/mcp"
    static let issuer = "https://id.example.test"

    struct Rig {
        let transport = StubTransport()
        let cache: MemoryMetadataCache
        let configuration: APIConfiguration
        let server: AuthorizationServer

        /// A resource that challenges with `scope`, naming the issuer; the issuer's RFC 8414
        /// metadata; and a configuration naming the resource (no issuer, no scope).
        init(scope: String? = "files:read", cache: MemoryMetadataCache = MemoryMetadataCache(),
             resourceAnswers: Bool = true, resourceTakesDPoP: Bool = false, openIDProvider: Bool = false,
             first: (StubTransport) -> Void = { _ in }) throws {
            self.cache = cache
            first(transport)
            var configuration = try Fixtures.configuration(clientID: "rider-cli")
            configuration.resource = URL(string: ResourceSignInTests.resource)
            self.configuration = configuration
            if resourceAnswers {
                let challenge = #"Bearer resource_metadata="\#(ResourceSignInTests.metadata)""#
                    + (scope.map { #", scope="\#($0)""# } ?? "")
                Self.stub(transport, .get, ResourceSignInTests.resource, .problem(status: 401, headers: ["WWW-Authenticate": challenge]))
            }
            var resourceDocument: FixtureJSON = [
                "resource": .string(ResourceSignInTests.resource),
                "authorization_servers": [.string(ResourceSignInTests.issuer)],
                "scopes_supported": ["files:read", "files:write"],
            ]
            if resourceTakesDPoP { resourceDocument["dpop_signing_alg_values_supported"] = ["ES256"] }
            Self.stub(transport, .get, ResourceSignInTests.metadata, .successful(resourceDocument))
            let issuer = ResourceSignInTests.issuer
            var serverDocument: FixtureJSON = [
                "issuer": .string(issuer), "token_endpoint": .string(issuer + "/token"),
                "authorization_endpoint": .string(issuer + "/authorize"),
                "device_authorization_endpoint": .string(issuer + "/device"),
                "code_challenge_methods_supported": ["S256"], "dpop_signing_alg_values_supported": ["ES256"],
            ]
            if openIDProvider {
                serverDocument["scopes_supported"] = ["openid", "files:read"]
                serverDocument["jwks_uri"] = .string(issuer + "/jwks")
            }
            // RFC 8414's document answers; OpenID Connect's, asked for what the first lacks, does not.
            Self.stub(transport, .get, issuer + "/.well-known/openid-configuration", .status(404))
            Self.stub(transport, .get, issuer + "/.well-known/oauth-authorization-server", .successful(serverDocument))
            let environment = ProtectedResourceDiscovery.Environment(transport: transport, cache: cache,
                                                                     clock: ManualClock(now: Fixtures.epoch))
            let discovery = ProtectedResourceDiscovery(
                configuration: try .init(resource: try #require(configuration.resource)), environment: environment)
            var server = AuthorizationServer(configuration: configuration)
            server.resourceAuthority = ProtectedResourceAuthority(discovery: discovery, environment: environment)
            self.server = server
        }

        func stub(_ method: HTTPMethod, _ url: String, _ reply: StubReply) {
            Self.stub(transport, method, url, reply)
        }

        static func stub(_ transport: StubTransport, _ method: HTTPMethod, _ url: String, _ reply: StubReply) {
            transport.stub(StubRoute("\(method) \(url)") { $0.method == method && $0.url.absoluteString == url }, with: reply)
        }

        func sessions() -> SessionEngine {
            SessionEngine(configuration: configuration, transport: transport, vault: SpyTokenVault(),
                          clock: ManualClock(now: Fixtures.epoch), authorizationServer: server)
        }

        var resourceRequests: Int { transport.requests.filter { $0.url.absoluteString == ResourceSignInTests.resource }.count }
        var tokenForms: [[String: String]] {
            transport.requests.filter { $0.url.absoluteString == ResourceSignInTests.issuer + "/token" }.map(\.formFields)
        }
    }

    @Test("the resource's authorization server gives the token endpoint, its challenge a sign-in's scope; asked once for many")
    func resolvedFromTheResource() async throws {
        let rig = try Rig()
        async let first = rig.server.signInConfiguration()
        async let second = rig.server.signInConfiguration()
        let (one, two) = try await (first, second)

        #expect(one.tokenPath == Self.issuer + "/token" && two.tokenPath == one.tokenPath)
        #expect(one.scope == "files:read", "the challenge's scope wins over the metadata's list")
        #expect(one.resource?.absoluteString == Self.resource)
        #expect(rig.resourceRequests == 1)
    }

    @Test("without a scope in the challenge, every scope the resource's metadata lists; a configured scope wins")
    func scopeSelection() async throws {
        #expect(try await Rig(scope: nil).server.signInConfiguration().scope == "files:read files:write")
        let configured = try Rig(scope: "files:read")
        var configuration = configured.configuration
        configuration.scope = "openid files:write"
        let server = AuthorizationServer(configuration: configuration)
        var withScope = server
        withScope.resourceAuthority = configured.server.resourceAuthority
        #expect(try await withScope.signInConfiguration().scope == "openid files:write")
    }

    @Test("every token request names the resource (RFC 8707): the sign-in's, and each refresh's")
    func resourceOnEveryTokenRequest() async throws {
        let rig = try Rig()
        rig.stub(.post, Self.issuer + "/token", .successful(Fixtures.tokenResponse()))
        let sessions = rig.sessions()

        let session = try await sessions.signIn(.password(Fixtures.credentials))
        _ = try await sessions.refresh()

        #expect(session.resource?.absoluteString == Self.resource)
        #expect(rig.tokenForms.count == 2)
        #expect(rig.tokenForms.allSatisfy { $0["resource"] == Self.resource })
        #expect(rig.tokenForms.first?["scope"] == "files:read")
    }

    @Test("a refresh names the resource its session was issued for, not the one configured now")
    func refreshKeepsTheSessionsResource() async throws {
        let rig = try Rig()
        var old = Fixtures.session()
        old.resource = URL(string: "https://api.example.test/other")
        var configuration = rig.configuration
        configuration.resource = URL(string: Self.resource)
        let request = TokenRequest.refresh(old, with: "r")
        rig.stub(.post, Self.issuer + "/token", .successful(Fixtures.tokenResponse()))
        let service = AuthorizationService(configuration: configuration, server: rig.server, transport: rig.transport,
                                           idTokenVerifier: nil, clock: ManualClock(now: Fixtures.epoch))

        _ = try await service.perform(request, clockSkew: 0)

        #expect(rig.tokenForms.last?["resource"] == "https://api.example.test/other")
    }

    @Test("device sign-in names the resource too")
    func deviceAuthorization() async throws {
        let rig = try Rig()
        rig.stub(.post, Self.issuer + "/device", .successful([
            "device_code": "d", "user_code": "ABCD-EFGH", "verification_uri": "https://id.example.test/verify",
            "expires_in": 600, "interval": 5,
        ]))
        let service = AuthorizationService(configuration: rig.configuration, server: rig.server, transport: rig.transport,
                                           idTokenVerifier: nil, clock: ManualClock(now: Fixtures.epoch))

        _ = try await service.requestDeviceAuthorization()

        let form = try #require(rig.transport.requests.last).formFields
        #expect(form["resource"] == Self.resource && form["scope"] == "files:read")
    }

    @Test("a later process reaches the kept issuer without asking the resource, even when the resource is down; a sign-in asks it afresh")
    func keptIssuer() async throws {
        let cache = MemoryMetadataCache()
        _ = try await Rig(cache: cache).server.resolvedConfiguration()

        let later = try Rig(cache: cache, resourceAnswers: false, first: { transport in
            Rig.stub(transport, .get, Self.resource, .status(503))
        })
        let resolved = try await later.server.resolvedConfiguration()
        #expect(resolved.tokenPath == Self.issuer + "/token")
        #expect(later.resourceRequests == 0)

        _ = try await later.server.browserSignIn()
        #expect(later.resourceRequests == 1, "a sign-in asks the resource, which may name other servers now")
    }

    @Test("a failed discovery is not kept: the next ask tries again")
    func failureNotKept() async throws {
        let rig = try Rig(resourceAnswers: false, first: { transport in
            Rig.stub(transport, .get, Self.resource, .status(503))
            Rig.stub(transport, .get, Self.metadata, .status(503))
        })
        // The resource's own failure each time, not a refusal kept from the first.
        for asked in 1...2 {
            let error = await #expect(throws: RiderError.self) { try await rig.server.resolvedConfiguration() }
            #expect(error?.code == .server && error?.status == 503, "\(String(describing: error))")
            #expect(rig.resourceRequests == asked)
        }
    }

    @Test("a resource must be on the API's origin, without fragment")
    func resourceOnTheServersOrigin() throws {
        let base = try #require(URL(string: "https://api.example.test/v1"))
        try APIConfiguration.validateResource(try #require(URL(string: "https://api.example.test/mcp")), on: base)
        for (refused, why) in [("https://other.example.test/mcp", "is not on the server"),
                               ("http://api.example.test/mcp", "plain http is only allowed for loopback hosts"),
                               ("https://api.example.test:8443/", "is not on the server"),
                               ("https://api.example.test/mcp#x", "must not have a fragment"),
                               ("http://evil.example/", "plain http is only allowed for loopback hosts")] {
            let error = #expect(throws: RiderError.self, "\(refused)") {
                try APIConfiguration.validateResource(try #require(URL(string: refused)), on: base)
            }
            #expect(error?.code == .invalidConfiguration && error?.message.contains(why) == true,
                    "\(refused): \(String(describing: error))")
        }
    }

    @Test("DPoP left to the provider binds a resource's tokens only where the resource says it takes the proofs too")
    func dpopOnlyWhereTheResourceTakesIt() async throws {
        #expect(try await Rig(resourceTakesDPoP: false).server.offersDPoP() == false)
        #expect(try await Rig(resourceTakesDPoP: true).server.offersDPoP() == true)
    }

    @Test("a configured client of an OpenID provider asks for openid with the resource's scope, so its id_token names the account")
    func openIDForAConfiguredClient() async throws {
        #expect(try await Rig(openIDProvider: true).server.signInConfiguration().scope == "openid files:read")
        #expect(try await Rig(openIDProvider: false).server.signInConfiguration().scope == "files:read")
    }
}
