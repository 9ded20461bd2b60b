import Foundation
import RiderApplication
import RiderDomain
import RiderKitTesting
import Testing
import TestSupport

/// A browser sign-in that pushes its request first (RFC 9126), from the client's side: what is
/// pushed, what the browser is given, and when pushing is required or ruled out — decided before
/// any page is presented.
@Suite("Pushed authorization requests: the client")
struct PushedAuthorizationClientTests {
    static let authorize = "https://login.example.test/authorize"
    static let par = "https://login.example.test/par"
    /// The stub matches on the path.
    static let parPath = "/par"
    static let requestURI = "urn:ietf:params:oauth:request_uri:6esc_11ACC5bwc014ltc14eY22c"

    struct Rig {
        let transport = StubTransport()
        let userAgent = ScriptedUserAgent()
        let configuration: APIConfiguration
        let signIn: SignInWithBrowser

        /// Endpoints set explicitly (no issuer), or an issuer whose metadata has `metadata` added.
        init(pushing: APIConfiguration.PushedAuthorizationUse = .auto, explicitPAR: Bool = true,
             metadata: [String: FixtureJSON]? = nil, dpop: APIConfiguration.DPoPUse = .off) throws {
            var configuration = try Fixtures.configuration(clientID: "rider-cli")
            configuration.scope = "profile"
            configuration.pushedAuthorization = pushing
            configuration.dpop = dpop
            self.configuration = configuration
            let clock = WaitingClock()
            let server: AuthorizationServer
            if let metadata {
                transport.stub(.get, ProviderDiscoveryTests.openID,
                               with: .successful(ProviderDiscoveryTests.document(extra: metadata)))
                let discovery = ProviderDiscovery(
                    configuration: try .init(issuer: try #require(URL(string: ProviderDiscoveryTests.issuer))),
                    transport: transport, cache: MemoryMetadataCache(), clock: clock)
                server = AuthorizationServer(configuration: configuration, discovery: discovery)
            } else {
                server = AuthorizationServer(configuration: configuration, explicit: ProviderEndpoints(
                    authorization: URL(string: PushedAuthorizationClientTests.authorize),
                    pushedAuthorizationRequest: explicitPAR ? URL(string: PushedAuthorizationClientTests.par) : nil))
            }
            let sessions = SessionEngine(configuration: configuration, transport: transport, vault: SpyTokenVault(),
                                         clock: clock, authorizationServer: server, dpopKeys: DPoPClientTests.Keys())
            signIn = SignInWithBrowser(sessions: sessions, userAgent: userAgent, cryptography: FixedCryptography(),
                                       clock: clock)
        }

        /// Signs in; the browser returns with a code and the state that was pushed.
        func run() async throws -> Session {
            let (transport, userAgent) = (transport, userAgent)
            return try await signIn { _ in
                let pushed = transport.requests(.post, PushedAuthorizationClientTests.parPath).last?.formFields["state"]
                    ?? userAgent.offered.last.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }?
                        .queryItems?.first { $0.name == "state" }?.value ?? ""
                userAgent.deliver("\(ScriptedUserAgent.redirectURI)?code=the-code&state=\(pushed)")
            }
        }
    }

    @Test("the request's parameters are pushed with the client's name; the browser gets only client_id and request_uri; the code is exchanged as before")
    func pushesThenOpensWithRequestURI() async throws {
        let rig = try Rig()
        rig.transport.stub(.post, Self.parPath, with: .json(["request_uri": .string(Self.requestURI), "expires_in": 60], status: 201))
        rig.transport.stub(.post, rig.configuration.tokenPath, with: .successful(Fixtures.tokenResponse()))
        let session = try await rig.run()
        #expect(session.accessToken == Fixtures.accessToken)

        let pushed = try #require(rig.transport.requests(.post, Self.parPath).only)
        let fields = pushed.formFields
        #expect(fields["client_id"] == "rider-cli")
        #expect(fields["response_type"] == "code")
        #expect(fields["redirect_uri"] == ScriptedUserAgent.redirectURI)
        #expect(fields["code_challenge"] == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(fields["code_challenge_method"] == "S256")
        #expect(fields["scope"] == "profile")
        #expect(fields["state"]?.count == 22)
        #expect(pushed.headers["Cache-Control"] == "no-store")
        #expect(String(decoding: pushed.body ?? Data(), as: UTF8.self).components(separatedBy: "client_id=").count == 2,
                "the client is named once")

        let offered = try #require(rig.userAgent.offered.only)
        let query = try #require(URLComponents(url: offered, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(query.map(\.name) == ["client_id", "request_uri"], "nothing else of the request is in the address")
        #expect(query.last?.value == Self.requestURI)
        #expect(offered.absoluteString.hasPrefix(Self.authorize + "?"))
        let exchange = try #require(rig.transport.requests(.post, rig.configuration.tokenPath).only)
        #expect(exchange.formFields["code_verifier"] == "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
    }

    @Test("a DPoP sign-in names its key as dpop_jkt and proves it on the push (RFC 9449 §10.1); the code is exchanged with a proof of the same key")
    func dpopKeyOnThePush() async throws {
        let rig = try Rig(dpop: .required)
        rig.transport.stub(.post, Self.parPath, with: .json(["request_uri": .string(Self.requestURI)], status: 201))
        rig.transport.stub(.post, rig.configuration.tokenPath, with: .successful(Fixtures.tokenResponse(tokenType: "DPoP")))
        let session = try await rig.run()
        #expect(session.isSenderConstrained)

        let pushed = try #require(rig.transport.requests(.post, Self.parPath).only)
        #expect(pushed.formFields["dpop_jkt"] == "thumb-k1")
        #expect(pushed.headers["DPoP"] == "k1|POST|\(Self.par)|-|-", "a proof of k1 for the push, without ath")
        let exchange = try #require(rig.transport.requests(.post, rig.configuration.tokenPath).only)
        #expect(exchange.headers["DPoP"]?.hasPrefix("k1|POST|") == true, "the code is redeemed with the same key")
    }

    @Test("discovered: a provider that names the endpoint gets pushed requests; one that does not gets the address as before")
    func discoveredEndpoint() async throws {
        let pushing = try Rig(metadata: ["pushed_authorization_request_endpoint": .string(Self.par)])
        pushing.transport.stub(.post, Self.parPath, with: .json(["request_uri": .string(Self.requestURI)], status: 201))
        pushing.transport.stub(.post, "/oauth/token", with: .successful(Fixtures.tokenResponse()))
        _ = try? await pushing.run()
        #expect(pushing.transport.count(.post, Self.parPath) == 1)

        let plain = try Rig(metadata: [:])
        plain.transport.stub(.post, "/oauth/token", with: .successful(Fixtures.tokenResponse()))
        _ = try? await plain.run()
        #expect(plain.transport.count(.post, Self.parPath) == 0)
        let offered = try #require(plain.userAgent.offered.only)
        #expect(offered.query?.contains("code_challenge=") == true)
    }

    @Test("required on one side and ruled out on the other: refused before any page is presented, naming why",
          arguments: [
              (APIConfiguration.PushedAuthorizationUse.required, false, nil as [String: FixtureJSON]?, "as configured"),
              (.auto, false, ["require_pushed_authorization_requests": true], "as the provider"),
              (.off, false, ["require_pushed_authorization_requests": true,
                             "pushed_authorization_request_endpoint": .string(Self.par)], "turned off"),
          ])
    func refusedBeforeThePage(pushing: APIConfiguration.PushedAuthorizationUse, explicitPAR: Bool,
                              metadata: [String: FixtureJSON]?, why: String) async throws {
        let rig = try Rig(pushing: pushing, explicitPAR: explicitPAR, metadata: metadata)
        let error = await #expect(throws: RiderError.self) { try await rig.run() }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains(why) == true, "\(String(describing: error?.message))")
        #expect(rig.userAgent.offered.isEmpty)
        #expect(rig.transport.count(.post, Self.parPath) == 0)
    }

    @Test("pushing off: the provider's endpoint is not used")
    func offNotPushed() async throws {
        let rig = try Rig(pushing: .off)
        rig.transport.stub(.post, rig.configuration.tokenPath, with: .successful(Fixtures.tokenResponse()))
        _ = try await rig.run()
        #expect(rig.transport.count(.post, Self.parPath) == 0)
    }

    @Test("the endpoint's refusal ends the sign-in as the token endpoint's would, before any page; an answer without request_uri is malformed",
          arguments: [
              (StubReply.tokenError("invalid_request", description: "redirect_uri not registered"), RiderError.Code.authorizationFailed),
              (.tokenError("invalid_client", status: 401), .invalidConfiguration),
              (.json(["expires_in": 60], status: 201), .malformedResponse),
              (.json(["request_uri": "a b", "expires_in": 60], status: 201), .malformedResponse),
          ])
    func refusals(reply: StubReply, code: RiderError.Code) async throws {
        let rig = try Rig()
        rig.transport.stub(.post, Self.parPath, with: reply)
        let error = await #expect(throws: RiderError.self) { try await rig.run() }
        #expect(error?.code == code)
        #expect(rig.userAgent.offered.isEmpty)
        #expect(rig.transport.count(.post, rig.configuration.tokenPath) == 0)
    }
}
