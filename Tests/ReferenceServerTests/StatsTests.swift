import Foundation
import RiderReferenceServer
import Testing

@Suite("Test hooks")
struct StatsTests {
    static let hooksOn = ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600), enableTestHooks: true)

    @Test("GET /_test/stats reports grants, failures and requests, and does not count itself")
    func statsRoute() async throws {
        try await TestServer.with(Self.hooksOn) { server in
            let token = try await server.login()
            _ = try await server.refresh(token.refreshToken)
            _ = try await server.refresh(token.refreshToken)
            _ = try await server.get("/nope")
            let first = try await server.get("/_test/stats")
            #expect(first.status == 200)
            let object = try first.object()
            #expect(Set(object.keys) == ["password_grants", "refresh_grants", "device_code_grants", "authorization_code_grants",
                                         "failed_token_requests", "requests"])
            #expect(object["password_grants"] as? Int == 1)
            #expect(object["refresh_grants"] as? Int == 1)
            #expect(object["failed_token_requests"] as? Int == 1)
            #expect(object["requests"] as? Int == 4)
            let second = try await server.get("/_test/stats").object()
            #expect(second["requests"] as? Int == 4)
            #expect(await server.store.stats() == ReferenceStore.Stats(passwordGrants: 1, refreshGrants: 1, failedTokenRequests: 1, requests: 4))
        }
    }

    @Test("issuedTokens() lists every access and refresh token in order")
    func issuedTokens() async throws {
        try await TestServer.with(Self.hooksOn) { server in
            let first = try await server.login()
            let second = try await server.refresh(first.refreshToken).decode(TokenBody.self)
            #expect(await server.store.issuedTokens() == [first.accessToken, first.refreshToken, second.accessToken, second.refreshToken])
        }
    }

    @Test("POST /_test/expire-access-tokens expires access tokens for out-of-process tests")
    func expireRoute() async throws {
        try await TestServer.with(Self.hooksOn) { server in
            let token = try await server.login()
            #expect(try await server.send("POST", "/_test/expire-access-tokens").status == 204)
            #expect(try await server.get("/auth/me", token: token.accessToken).status == 401)
        }
    }
}
