import Foundation
import Synchronization
import RiderApplication
import RiderDomain
import RiderKitTesting
import Testing
import TestSupport

/// The client's authentication as the provider's endpoints get it: `private_key_jwt` assertions
/// (RFC 7523 §2.2), one per request, addressed as configured; `client_secret_post` where the
/// provider lists only that; a public client's `client_id` alone.
@Suite("Client authentication: private_key_jwt and the provider's methods")
struct ClientAuthenticationTests {
    /// Signs "assertions" that spell out what they were made for: `n|client|audience`.
    final class SpellingSigner: ClientAssertionSigner {
        private let made = Mutex(0)
        func assertion(clientID: String, audience: String, now: Date) async throws -> String {
            "a\(made.withLock { $0 += 1; return $0 })|\(clientID)|\(audience)"
        }
    }

    static func server(_ configuration: APIConfiguration, transport: StubTransport, metadata: [String: FixtureJSON]? = nil,
                       signer: (any ClientAssertionSigner)? = SpellingSigner()) throws -> AuthorizationServer {
        let clock = ManualClock(now: Fixtures.epoch)
        let discovery = try metadata.map { extra in
            transport.stub(.get, ProviderDiscoveryTests.openID, with: .successful(ProviderDiscoveryTests.document(extra: extra)))
            return ProviderDiscovery(configuration: try .init(issuer: try #require(URL(string: ProviderDiscoveryTests.issuer))),
                                     transport: transport, cache: MemoryMetadataCache(), clock: clock)
        }
        return AuthorizationServer(configuration: configuration, discovery: discovery,
                                   clientAssertions: signer.map { ClientAssertions(signer: $0, clock: clock) })
    }

    static func configuration(_ method: APIConfiguration.ClientAuthentication, secret: String? = nil) throws -> APIConfiguration {
        var configuration = try Fixtures.configuration(clientID: "rider-key-client")
        configuration.clientAuthentication = method
        configuration.clientSecret = secret
        return configuration
    }

    @Test("private_key_jwt: every token request carries a fresh assertion for the issuer, and the client's name; no secret")
    func assertionPerRequest() async throws {
        let transport = StubTransport()
        let configuration = try Self.configuration(.privateKeyJWT, secret: "never-sent")
        let server = try Self.server(configuration, transport: transport,
                                     metadata: ["grant_types_supported": ["password", "refresh_token"]])
        let sessions = SessionEngine(configuration: configuration, transport: transport, vault: SpyTokenVault(),
                                     clock: ManualClock(now: Fixtures.epoch), authorizationServer: server)
        transport.stub(.post, "/oauth/token", with: .successful(Fixtures.tokenResponse()))
        _ = try await sessions.signIn(.password(Credentials(email: "ada@example.com", password: "pw")))
        _ = try await sessions.refresh()

        let forms = transport.requests(.post, "/oauth/token").map(\.formFields)
        #expect(forms.map { $0["client_assertion"] } == ["a1|rider-key-client|\(ProviderDiscoveryTests.issuer)",
                                                         "a2|rider-key-client|\(ProviderDiscoveryTests.issuer)"])
        #expect(forms.allSatisfy { $0["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" })
        #expect(forms.allSatisfy { $0["client_id"] == "rider-key-client" && $0["client_secret"] == nil })
        #expect(transport.requests(.post, "/oauth/token").allSatisfy { $0.headers["Authorization"] == nil })
    }

    @Test("the audience is the token endpoint when told, or when there is no issuer")
    func tokenEndpointAudience() async throws {
        var configuration = try Self.configuration(.privateKeyJWT)
        configuration.clientAssertionAudience = .tokenEndpoint
        let discovered = try Self.server(configuration, transport: StubTransport(), metadata: [:])
        let withIssuer = try await discovered.authenticating(try await discovered.resolvedConfiguration())
        #expect(withIssuer.clientAssertion == "a1|rider-key-client|https://id.example.test/oauth/token")
        let plain = try Self.server(try Self.configuration(.privateKeyJWT), transport: StubTransport())
        let noIssuer = try await plain.authenticating(try await plain.resolvedConfiguration())
        #expect(noIssuer.clientAssertion?.hasSuffix("|\(Fixtures.baseURL)/auth/token") == true,
                "\(String(describing: noIssuer.clientAssertion))")
    }

    @Test("each revocation at logout is authenticated with an assertion of its own")
    func revocationsAuthenticated() async throws {
        let transport = StubTransport()
        let configuration = try Self.configuration(.privateKeyJWT)
        let server = try Self.server(configuration, transport: transport)
        let sessions = SessionEngine(configuration: configuration, transport: transport, vault: SpyTokenVault(),
                                     clock: ManualClock(now: Fixtures.epoch), authorizationServer: server)
        transport.stub(.post, configuration.tokenPath, with: .successful(Fixtures.tokenResponse()))
        transport.stub(.post, configuration.revokePath, with: .status(200))
        _ = try await sessions.signIn(.password(Credentials(email: "ada@example.com", password: "pw")))
        let outcome = try await Logout(sessions: sessions, cache: try UseCaseHarness().cache, clearsCache: false)()
        #expect(outcome.revokedOnServer)
        let assertions = transport.requests(.post, configuration.revokePath).map { $0.formFields["client_assertion"] }
        #expect(assertions.count == 2 && Set(assertions).count == 2, "\(assertions)")
    }

    @Test("private_key_jwt without a key is a configuration error before anything is sent")
    func noKey() async throws {
        let transport = StubTransport()
        let server = try Self.server(try Self.configuration(.privateKeyJWT), transport: transport, signer: nil)
        let error = await #expect(throws: RiderError.self) {
            _ = try await server.authenticating(try await server.resolvedConfiguration())
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains("no key") == true)
    }

    @Test("a secret goes in the body where the provider lists client_secret_post and not client_secret_basic; a public client names itself")
    func providerMethods() async throws {
        let postOnly = try Self.server(try Self.configuration(.basic, secret: "s"), transport: StubTransport(),
                                       metadata: ["token_endpoint_auth_methods_supported": ["client_secret_post"]])
        #expect(try await postOnly.authenticating(try await postOnly.resolvedConfiguration()).clientAuthentication == .requestBody)
        let both = try Self.server(try Self.configuration(.basic, secret: "s"), transport: StubTransport(),
                                   metadata: ["token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"]])
        #expect(try await both.authenticating(try await both.resolvedConfiguration()).clientAuthentication == .basic)

        let publicClient = try Self.configuration(.none, secret: "kept-back")
        let request = try API.revoke("t", hint: "access_token", in: publicClient).request(in: publicClient)
        #expect(request.formFields["client_id"] == "rider-key-client")
        #expect(request.formFields["client_secret"] == nil && request.headers["Authorization"] == nil)
    }
}
