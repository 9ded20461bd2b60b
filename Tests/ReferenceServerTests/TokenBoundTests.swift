import Foundation
import RiderReferenceServer
import Testing

@Suite("The server keeps a bounded number of tokens")
struct TokenBoundTests {
    @Test("past maximumStoredTokens the oldest tokens are dropped; the newest logins keep working")
    func oldestDropped() async throws {
        let configuration = ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600), maximumStoredTokens: 20)
        try await TestServer.with(configuration) { server in
            var logins: [TokenBody] = []
            for _ in 0..<30 {
                logins.append(try await server.login())
                #expect(await server.store.storedTokens() <= 20)
            }
            let first = try #require(logins.first)
            #expect(try await server.get("/auth/me", token: first.accessToken).status == 401)
            #expect(try await server.refresh(first.refreshToken).status == 400)
            for login in logins.suffix(5) {
                #expect(try await server.get("/auth/me", token: login.accessToken).status == 200)
            }
            #expect(await server.store.issuedTokens().count <= 22, "the leak-check log is bounded too")
        }
    }

    @Test("expired tokens are pruned before any live token is dropped")
    func expiredGoFirst() async throws {
        let configuration = ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .milliseconds(100),
                                                         refreshTokenTTL: .milliseconds(300), maximumStoredTokens: 20)
        try await TestServer.with(configuration) { server in
            for _ in 0..<9 { _ = try await server.login() }
            try await Task.sleep(for: .milliseconds(400))
            // Later tokens live long, so the fresh logins below are still live when they are
            // refreshed, however slowly the machine runs.
            await server.store.setAccessTokenTTL(.seconds(3600))
            await server.store.setRefreshTokenTTL(.seconds(3600))
            // 18 expired tokens held; the next logins need room, and take it from the expired ones.
            var fresh: [TokenBody] = []
            for _ in 0..<4 { fresh.append(try await server.login()) }
            #expect(await server.store.storedTokens() == 8, "only the four live logins are left")
            for login in fresh {
                #expect(try await server.refresh(login.refreshToken).status == 200, "no live token was dropped")
            }
        }
    }

    @Test("a rotated refresh token is remembered, for reuse detection, only until it would have expired")
    func retiredTokensExpire() async throws {
        let configuration = ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600),
                                                         refreshTokenTTL: .milliseconds(300), maximumStoredTokens: 16)
        try await TestServer.with(configuration) { server in
            let first = try await server.login()
            _ = try await server.refresh(first.refreshToken)
            try await Task.sleep(for: .milliseconds(400))
            for _ in 0..<7 { _ = try await server.login() }
            #expect(await server.store.storedTokens() <= 16)
        }
    }

    @Test("the default bound is 100,000 tokens, far above any test or benchmark run")
    func defaultBound() {
        #expect(ReferenceServerConfiguration().maximumStoredTokens == 100_000)
    }
}
