import Foundation
import RiderReferenceServer
import Testing

@Suite("Bearer authentication")
struct AuthenticationTests {
    static let protectedPaths = ["/auth/me", "/riders/me", "/users", "/users/search?q=a", "/users/u_000001"]

    /// The Bearer challenge of a 401: the realm and the API's metadata (RFC 9728 §5.1).
    static func challenge(_ server: TestServer) -> String {
        #"Bearer realm="rider", resource_metadata="\#(server.baseURL.absoluteString)/.well-known/oauth-protected-resource""#
    }

    @Test("a request without a token answers 401 with a realm and a problem", arguments: protectedPaths)
    func missingToken(path: String) async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 2, accessTokenTTL: .seconds(3600))) { server in
            let response = try await server.get(path)
            #expect(response.status == 401)
            #expect(response.header("WWW-Authenticate") == Self.challenge(server))
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(try response.decode(ProblemBody.self).status == 401)
        }
    }

    @Test("an unknown token answers 401 with error=invalid_token")
    func unknownToken() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let response = try await server.get("/auth/me", token: "made-up")
            #expect(response.status == 401)
            let challenge = try #require(response.header("WWW-Authenticate"))
            #expect(challenge.hasPrefix(Self.challenge(server) + #", error="invalid_token""#))
        }
    }

    @Test("another scheme counts as no token")
    func basicScheme() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let response = try await server.get("/auth/me", headers: ["Authorization": "Basic ZGVtbzpkZW1v"])
            #expect(response.status == 401)
            #expect(response.header("WWW-Authenticate") == Self.challenge(server))
        }
    }

    @Test("after expireAccessTokens() the access token answers 401 and a refresh recovers")
    func expiredAccessToken() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let token = try await server.login()
            #expect(try await server.get("/auth/me", token: token.accessToken).status == 200)
            await server.store.expireAccessTokens()
            let expired = try await server.get("/auth/me", token: token.accessToken)
            #expect(expired.status == 401)
            #expect(expired.header("WWW-Authenticate")?.contains(#"error="invalid_token""#) == true)
            #expect(try expired.decode(ProblemBody.self).detail.contains("expired"))
            let fresh = try await server.refresh(token.refreshToken).decode(TokenBody.self)
            #expect(try await server.get("/auth/me", token: fresh.accessToken).status == 200)
        }
    }

    @Test("an access token expires after its TTL, and setAccessTokenTTL changes expires_in")
    func accessTokenTTL() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            await server.store.setAccessTokenTTL(.milliseconds(300))
            let short = try await server.login()
            #expect(short.expiresIn == 0)
            try await Task.sleep(for: .milliseconds(400))
            #expect(try await server.get("/auth/me", token: short.accessToken).status == 401)
            await server.store.setAccessTokenTTL(.seconds(5))
            #expect(try await server.login().expiresIn == 5)
        }
    }

    @Test("GET /auth/me returns the signed-in user")
    func me() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let response = try await server.get("/auth/me", token: server.login().accessToken)
            let me = try response.decode(UserBody.self)
            #expect(me == UserBody(
                id: "u_000000",
                email: "demo@example.com",
                displayName: "Demo Rider",
                role: "user",
                riderType: "learner",
                createdAt: "2024-01-01T00:00:00Z"
            ))
            #expect(response.header("Cache-Control") == "no-store")
        }
    }
}
