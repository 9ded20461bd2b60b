import Foundation
import RiderApplication
import RiderDomain
import RiderInfrastructure
import RiderReferenceServer
import Testing

/// The session engine's promises, checked where they matter: against a real server that rotates
/// refresh tokens and counts every grant.
@Suite("Session engine against the reference server")
struct SessionEngineAgainstReferenceServerTests {
    // 300, not more: every test shares this process and its 2 cores, and a larger storm starves the other
    // in-process servers. The 1,000-request storm runs against an out-of-process rider-server in
    // `make bench-smoke` (part of make test: rider-bench storm), and in-memory under ThreadSanitizer
    // (make race-check).
    @Test("300 concurrent requests on an expired token: the server counts exactly one refresh, all succeed")
    func refreshStorm() async throws {
        let harness = try await ReferenceServerHarness.start(.init(seedUsers: 10, accessTokenTTL: .seconds(3600)))
        defer { Task { await harness.stop() } }
        _ = try await harness.login(ReferenceServerHarness.demo)
        await harness.server.store.expireAccessTokens()

        let succeeded = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<300 { group.addTask { try await harness.getRider().userID == "u_000000" } }
            var count = 0
            for try await ok in group where ok { count += 1 }
            return count
        }

        #expect(succeeded == 300)
        #expect(await harness.server.store.stats().refreshGrants == 1)
        #expect(await harness.sessions.refreshCount == 1)
    }

    @Test("Authorization reaches a same-origin redirect target and not a cross-origin one",
          arguments: TransportKind.allCases)
    func redirectsKeepTokensHome(_ kind: TransportKind) async throws {
        let home = try await ReferenceServer.start(.init(seedUsers: 1, enableTestHooks: true))
        let elsewhere = try await ReferenceServer.start(.init(seedUsers: 1, enableTestHooks: true))
        defer { Task { await home.stop(); await elsewhere.stop() } }
        let transport = RequestPipeline(transport: kind.make(), middlewares: [RedirectMiddleware()])

        func headersReceived(redirectingTo target: String) async throws -> EchoedHeaders {
            var components = try #require(URLComponents(url: home.baseURL.appendingPathComponent("_test/redirect"),
                                                        resolvingAgainstBaseURL: false))
            components.queryItems = [URLQueryItem(name: "to", value: target)]
            let request = HTTPRequest(method: .get, url: try #require(components.url),
                                      headers: ["Authorization": "Bearer not-for-strangers", "Cookie": "c=1"])
            let response = try await transport.send(request)
            #expect(response.status == 200)
            return try JSONDecoder().decode(EchoedHeaders.self, from: response.body)
        }

        let sameOrigin = try await headersReceived(redirectingTo: "/_test/echo-headers")
        #expect(sameOrigin.headers.contains("authorization"))
        #expect(sameOrigin.headers.contains("cookie"))

        let crossOrigin = try await headersReceived(
            redirectingTo: elsewhere.baseURL.appendingPathComponent("_test/echo-headers").absoluteString)
        #expect(!crossOrigin.headers.contains("authorization"))
        #expect(!crossOrigin.headers.contains("cookie"))
    }

    @Test("login works unchanged against a standard OAuth 2.0 token endpoint (client auth, no user_id in the answer)",
          arguments: TransportKind.allCases, [APIConfiguration.ClientAuthentication.basic, .requestBody])
    func standardOAuthServer(_ kind: TransportKind, clientAuthentication: APIConfiguration.ClientAuthentication) async throws {
        let server = try await ReferenceServer.start(.init(seedUsers: 1))
        defer { Task { await server.stop() } }
        let api = try APIConfiguration(
            baseURL: server.baseURL, tokenPath: "/oauth2/token", clientID: StandardOAuthClient.id,
            clientSecret: StandardOAuthClient.secret, clientAuthentication: clientAuthentication)
        let transport = kind.make()
        let sessions = SessionEngine(configuration: api, transport: transport, vault: InMemoryTokenVault(), clock: SystemClock())
        let client = APIClient(configuration: api, transport: transport, sessions: sessions)

        let session = try await Login(api: client, sessions: sessions)(ReferenceServerHarness.demo)
        #expect(session.userID == "u_000000", "found through /auth/me")
        #expect(session.role == .user)
        let renewed = try await sessions.refresh()
        #expect(renewed.refreshToken != session.refreshToken)
        #expect(await server.store.stats().refreshGrants == 1)
    }

    @Test("a wrong client secret on a standard OAuth server is a configuration error, not wrong credentials",
          arguments: TransportKind.allCases)
    func wrongClientSecret(_ kind: TransportKind) async throws {
        let server = try await ReferenceServer.start(.init(seedUsers: 1))
        defer { Task { await server.stop() } }
        let api = try APIConfiguration(baseURL: server.baseURL, tokenPath: "/oauth2/token",
                                       clientID: StandardOAuthClient.id, clientSecret: "wrong")
        let transport = kind.make()
        let sessions = SessionEngine(configuration: api, transport: transport, vault: InMemoryTokenVault(), clock: SystemClock())
        let login = Login(api: APIClient(configuration: api, transport: transport, sessions: sessions), sessions: sessions)

        await #expect {
            try await login(ReferenceServerHarness.demo)
        } throws: { error in
            if case RiderError.invalidConfiguration = error { return true }
            return false
        }
    }
}
