import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("AuthorizationServer: the session's token and revocation endpoints from discovery")
struct AuthorizationServerTests {
    struct Fixture {
        let transport = StubTransport()
        let clock = ManualClock()
        let vault = SpyTokenVault()
        let configuration: APIConfiguration
        let server: AuthorizationServer
        let sessions: SessionEngine

        /// An API at `Fixtures.baseURL` and an issuer elsewhere, with `explicit` endpoints.
        init(explicit: ProviderEndpoints = ProviderEndpoints()) throws {
            configuration = try Fixtures.configuration()
            let discovery = ProviderDiscovery(
                configuration: try .init(issuer: try #require(URL(string: ProviderDiscoveryTests.issuer))),
                transport: transport, cache: MemoryMetadataCache(), clock: clock)
            server = AuthorizationServer(configuration: configuration, discovery: discovery, explicit: explicit)
            sessions = SessionEngine(configuration: configuration, transport: transport, vault: vault, clock: clock,
                                     authorizationServer: server)
        }
    }

    @Test("with an issuer, sign-in, refresh and logout's revocation use the discovered endpoints, read once")
    func discoveredEndpoints() async throws {
        let fixture = try Fixture()
        fixture.transport.stub(.get, ProviderDiscoveryTests.openID, with: .successful(ProviderDiscoveryTests.document(
            extra: ["grant_types_supported": ["password", "refresh_token"]])))
        fixture.transport.stub(.post, "/oauth/token", with: .successful(Fixtures.tokenResponse()))
        fixture.transport.stub(.post, "/oauth/revoke", with: .status(200))

        _ = try await fixture.sessions.signIn(.password(Credentials(email: "ada@example.com", password: "pw")))
        fixture.clock.advance(by: 3590)
        _ = try await fixture.sessions.refresh()
        let logout = Logout(sessions: fixture.sessions, cache: try UseCaseHarness().cache, clearsCache: false)
        let outcome = try await logout()

        let tokenRequests = fixture.transport.requests(.post, "/oauth/token")
        #expect(tokenRequests.map { $0.url.host } == ["id.example.test", "id.example.test"])
        #expect(tokenRequests.first?.formFields["grant_type"] == "password")
        #expect(tokenRequests.last?.formFields["grant_type"] == "refresh_token")
        #expect(outcome.revokedOnServer && fixture.transport.count(.post, "/oauth/revoke") == 2)
        #expect(fixture.transport.count(.post, "/auth/token") == 0)
        #expect(fixture.transport.count(.get, ProviderDiscoveryTests.openID) == 1)
    }

    @Test("a provider whose metadata names no revocation endpoint is not sent a revocation; logout says the server was not told")
    func noRevocationEndpoint() async throws {
        let fixture = try Fixture()
        fixture.transport.stub(.get, ProviderDiscoveryTests.openID,
                               with: .successful(ProviderDiscoveryTests.document(extra: [
                                   "revocation_endpoint": .null, "grant_types_supported": ["password"]])))
        // Asked for the revocation endpoint the OpenID document lacks; it has none either.
        fixture.transport.stub(.get, ProviderDiscoveryTests.oauth, with: .status(404))
        fixture.transport.stub(.post, "/oauth/token", with: .successful(Fixtures.tokenResponse()))

        _ = try await fixture.sessions.signIn(.password(Credentials(email: "ada@example.com", password: "pw")))
        let logout = Logout(sessions: fixture.sessions, cache: try UseCaseHarness().cache, clearsCache: false)
        let outcome = try await logout()

        #expect(outcome == Logout.Outcome(wasSignedIn: true, revokedOnServer: false))
        #expect(fixture.transport.count(.post, "/auth/revoke") == 0, "not the API's revoke path either")
        #expect(try await fixture.vault.loadSession() == nil, "the session is removed here all the same")
    }

    @Test("a device sign-in starts at the device authorization endpoint the provider names")
    func discoveredDeviceEndpoint() async throws {
        let fixture = try Fixture()
        fixture.transport.stub(.get, ProviderDiscoveryTests.openID, with: .successful(ProviderDiscoveryTests.document()))
        fixture.transport.stub(.post, "/oauth/device", with: .successful([
            "device_code": "dc", "user_code": "WDJB-MJHT", "verification_uri": "https://id.example.test/device",
            "expires_in": 600, "interval": 5,
        ]))
        let pending = try await SignInWithDeviceCode(sessions: fixture.sessions, clock: fixture.clock).start()
        #expect(pending.userCode == "WDJB-MJHT")
        #expect(fixture.transport.requests(.post, "/oauth/device").first?.url.host == "id.example.test")
    }

    @Test("a provider that lists its grants without the password grant is not sent a password; the error names what it offers, its remedy which",
          arguments: [
              (["authorization_code", "refresh_token"], "sign in with the browser",
               RiderError.Remedy.signInWithoutPassword(browser: true, deviceCode: false)),
              (["urn:ietf:params:oauth:grant-type:device_code", "refresh_token"], "sign in with a device code",
               .signInWithoutPassword(browser: false, deviceCode: true)),
              (["authorization_code", "urn:ietf:params:oauth:grant-type:device_code"],
               "sign in with the browser or with a device code", .signInWithoutPassword(browser: true, deviceCode: true)),
              (["refresh_token"], "offers no sign-in this RiderKit supports", nil),
          ])
    func passwordGrantNotOffered(grants: [String], named: String, remedy: RiderError.Remedy?) async throws {
        let fixture = try Fixture()
        fixture.transport.stub(.get, ProviderDiscoveryTests.openID, with: .successful(ProviderDiscoveryTests.document(
            extra: ["grant_types_supported": .array(grants.map(FixtureJSON.string))])))
        let thrown = await #expect(throws: RiderError.self) {
            try await fixture.sessions.signIn(.password(Credentials(email: "ada@example.com", password: "pw")))
        }
        #expect(thrown?.code == .invalidConfiguration)
        #expect(thrown?.message.contains("does not offer sign-in with a password") == true)
        #expect(thrown?.message.contains(named) == true, "\(thrown?.message ?? "")")
        #expect(thrown?.message.contains("rider") == false, "no CLI advice in a library message")
        #expect(thrown?.remedy == remedy)
        #expect(fixture.transport.count(.post, "/oauth/token") == 0, "the password was never sent")
    }

    @Test("a provider that does not list its grants is asked: its token endpoint decides")
    func unlistedGrants() async throws {
        let fixture = try Fixture()
        fixture.transport.stub(.get, ProviderDiscoveryTests.openID,
                               with: .successful(ProviderDiscoveryTests.document(extra: ["grant_types_supported": .null])))
        fixture.transport.stub(.post, "/oauth/token", with: .tokenError("unauthorized_client"))
        let thrown = await #expect(throws: RiderError.self) {
            try await fixture.sessions.signIn(.password(Credentials(email: "ada@example.com", password: "pw")))
        }
        #expect(thrown?.code == .invalidConfiguration)
        #expect(thrown?.message.contains("with the browser or with a device code") == true)
        #expect(thrown?.remedy == .signInWithoutPassword(browser: true, deviceCode: true))
        #expect(fixture.transport.count(.post, "/oauth/token") == 1)
    }

    @Test("explicit token and revocation endpoints win, and then the provider is never asked")
    func explicitEndpointsWin() async throws {
        let explicit = ProviderEndpoints(token: URL(string: "https://tokens.example.test/t"),
                                         revocation: URL(string: "https://tokens.example.test/r"))
        let fixture = try Fixture(explicit: explicit)
        fixture.transport.stub(.post, "/t", with: .successful(Fixtures.tokenResponse()))

        _ = try await fixture.sessions.signIn(.password(Credentials(email: "ada@example.com", password: "pw")))

        #expect(!fixture.server.needsDiscovery)
        #expect(fixture.transport.requests.map(\.url.absoluteString) == ["https://tokens.example.test/t"])
    }

    @Test("an explicit token endpoint with a discovered revocation endpoint: each from where it is set")
    func mixed() async throws {
        let fixture = try Fixture(explicit: ProviderEndpoints(token: URL(string: "https://tokens.example.test/t")))
        fixture.transport.stub(.get, ProviderDiscoveryTests.openID, with: .successful(ProviderDiscoveryTests.document()))

        let resolved = try await fixture.server.resolvedConfiguration()

        #expect(resolved.tokenPath == "https://tokens.example.test/t")
        #expect(resolved.revokePath == "https://id.example.test/oauth/revoke")
        #expect(resolved.tokenEndpointOrigin == "https://tokens.example.test")
    }

    @Test("metadata without a token endpoint is a configuration error at sign-in, and no password is sent")
    func noTokenEndpoint() async throws {
        let fixture = try Fixture()
        var document = ProviderDiscoveryTests.document()
        document["token_endpoint"] = nil
        fixture.transport.stub(.get, ProviderDiscoveryTests.openID, with: .successful(document))

        await expectError(.invalidConfiguration) {
            try await fixture.sessions.signIn(.password(Credentials(email: "ada@example.com", password: "pw")))
        }
        #expect(fixture.transport.requests.allSatisfy { $0.method == .get })
    }

    @Test("without an issuer nothing is asked and the configured paths stay")
    func withoutIssuer() async throws {
        let configuration = try Fixtures.configuration()
        let server = AuthorizationServer(configuration: configuration)

        #expect(!server.needsDiscovery)
        #expect(try await server.resolvedConfiguration() == configuration)
    }
}
