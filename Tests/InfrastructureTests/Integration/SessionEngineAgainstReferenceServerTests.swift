import Foundation
import RiderApplication
import RiderDomain
import RiderInfrastructure
import RiderKit
import RiderReferenceServer
import Testing
import TestSupport

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
        try await withReferenceServer(.init(seedUsers: 10, accessTokenTTL: .seconds(3600))) { server in
            let kit = try server.riderKit()
            _ = try await kit.login(.referenceDemo)
            await server.store.expireAccessTokens()

            let succeeded = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<300 { group.addTask { try await kit.profile.get().userID == "u_000000" } }
                var count = 0
                for try await ok in group where ok { count += 1 }
                return count
            }

            #expect(succeeded == 300)
            #expect(await server.store.stats().refreshGrants == 1)
            #expect(await kit.sessions.refreshCount == 1)
        }
    }

    @Test("Authorization reaches a same-origin redirect target and not a cross-origin one",
          arguments: TransportKind.allCases)
    func redirectsKeepTokensHome(_ kind: TransportKind) async throws {
        try await withReferenceServer(.init(seedUsers: 1, enableTestHooks: true)) { home in
            try await withReferenceServer(.init(seedUsers: 1, enableTestHooks: true)) { elsewhere in
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
        }
    }

    @Test("login works unchanged against a standard OAuth 2.0 token endpoint (client auth, no user_id in the answer)",
          arguments: TransportKind.allCases, [APIConfiguration.ClientAuthentication.basic, .requestBody])
    func standardOAuthServer(_ kind: TransportKind, clientAuthentication: APIConfiguration.ClientAuthentication) async throws {
        try await withReferenceServer(.init(seedUsers: 1)) { server in
            let api = try APIConfiguration(
                baseURL: server.baseURL, tokenPath: "/oauth2/token", clientID: StandardOAuthClient.id,
                clientSecret: StandardOAuthClient.secret, clientAuthentication: clientAuthentication,
                requestTimeout: 60)
            let kit = try server.riderKit(api: api, transport: kind.make())

            let session = try await kit.login(.referenceDemo)
            #expect(session.userID == "u_000000", "found through /auth/me")
            #expect(session.role == .user)
            let renewed = try await kit.sessions.refresh()
            #expect(renewed.refreshToken != session.refreshToken)
            #expect(await server.store.stats().refreshGrants == 1)
        }
    }

    @Test("a wrong client secret on a standard OAuth server is a configuration error, not wrong credentials",
          arguments: TransportKind.allCases)
    func wrongClientSecret(_ kind: TransportKind) async throws {
        try await withReferenceServer(.init(seedUsers: 1)) { server in
            let api = try APIConfiguration(baseURL: server.baseURL, tokenPath: "/oauth2/token",
                                           clientID: StandardOAuthClient.id, clientSecret: "wrong", requestTimeout: 60)
            let kit = try server.riderKit(api: api, transport: kind.make())

            await #expect {
                try await kit.login(.referenceDemo)
            } throws: { error in
                if let riderError = error as? RiderError, riderError.code == .invalidConfiguration { return true }
                return false
            }
        }
    }
}
