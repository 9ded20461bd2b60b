import Foundation
import RiderReferenceServer
import Testing

@Suite("Refresh token rotation")
struct RefreshRotationTests {
    @Test("a refresh issues a new access token and a new refresh token")
    func refreshRotates() async throws {
        try await TestServer.with { server in
            let first = try await server.login()
            let response = try await server.refresh(first.refreshToken)
            #expect(response.status == 200)
            #expect(response.header("Cache-Control") == "no-store")
            let second = try response.decode(TokenBody.self)
            #expect(second.refreshToken != first.refreshToken)
            #expect(second.accessToken != first.accessToken)
            #expect(second.userID == first.userID)
            #expect(try await server.get("/auth/me", token: second.accessToken).status == 200)
            #expect(await server.store.stats().refreshGrants == 1)
        }
    }

    @Test("a used refresh token is rejected with invalid_grant")
    func usedRefreshTokenRejected() async throws {
        try await TestServer.with { server in
            let first = try await server.login()
            _ = try await server.refresh(first.refreshToken).decode(TokenBody.self)
            let reused = try await server.refresh(first.refreshToken)
            #expect(reused.status == 400)
            #expect(reused.header("Cache-Control") == "no-store")
            #expect(try reused.decode(TokenErrorBody.self).error == "invalid_grant")
        }
    }

    @Test("a retired refresh token revokes its whole family: every access and refresh token from that login")
    func reuseRevokesFamily() async throws {
        try await TestServer.with { server in
            // Given a login refreshed twice: first → second → third.
            let first = try await server.login()
            let second = try await server.refresh(first.refreshToken).decode(TokenBody.self)
            let third = try await server.refresh(second.refreshToken).decode(TokenBody.self)
            // And another login of the same rider, a family of its own.
            let elsewhere = try await server.login()

            // When the retired first refresh token comes back (a stolen copy, or a lost client).
            let reused = try await server.refresh(first.refreshToken)

            // Then it is refused, and nothing of that family works any more, the newest included.
            #expect(try reused.decode(TokenErrorBody.self).error == "invalid_grant")
            for access in [first.accessToken, second.accessToken, third.accessToken] {
                #expect(try await server.get("/auth/me", token: access).status == 401)
            }
            #expect(try await server.refresh(third.refreshToken).decode(TokenErrorBody.self).error == "invalid_grant")
            #expect(try await server.refresh(second.refreshToken).decode(TokenErrorBody.self).error == "invalid_grant")
            // The other login is untouched.
            #expect(try await server.get("/auth/me", token: elsewhere.accessToken).status == 200)
            #expect(try await server.refresh(elsewhere.refreshToken).status == 200)
            #expect(await server.store.stats().refreshGrants == 3)
        }
    }

    @Test("a chain of refreshes, each with the newest token, never counts as reuse")
    func legitimateChainKeepsWorking() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            var current = try await server.login()
            for _ in 0..<25 {
                let response = try await server.refresh(current.refreshToken)
                #expect(response.status == 200)
                current = try response.decode(TokenBody.self)
            }
            #expect(try await server.get("/auth/me", token: current.accessToken).status == 200)
            #expect(await server.store.stats().failedTokenRequests == 0)
        }
    }

    @Test("revoking a retired refresh token ends its family too (a logout from a stale copy still signs out)")
    func revokeWithRetiredToken() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let first = try await server.login()
            let second = try await server.refresh(first.refreshToken).decode(TokenBody.self)
            #expect(try await server.postForm("/auth/revoke", [("token", first.refreshToken)]).status == 200)
            #expect(try await server.get("/auth/me", token: second.accessToken).status == 401)
            #expect(try await server.refresh(second.refreshToken).status == 400)
        }
    }

    @Test("access tokens issued before a refresh stay valid until they expire")
    func oldAccessTokenStaysValid() async throws {
        try await TestServer.with { server in
            let first = try await server.login()
            _ = try await server.refresh(first.refreshToken).decode(TokenBody.self)
            #expect(try await server.get("/auth/me", token: first.accessToken).status == 200)
        }
    }

    @Test("of concurrent refreshes with one token exactly one succeeds")
    func concurrentRefresh() async throws {
        try await TestServer.with { server in
            let first = try await server.login()
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await server.refresh(first.refreshToken).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1)
            #expect(statuses.filter { $0 == 400 }.count == 7)
            // The losers presented a token the winner had retired: that is reuse, so the family
            // ends. A client must refresh single-flight (RiderKit's session engine does).
            #expect(await server.store.stats().refreshGrants == 1)
        }
    }

    @Test("tokens holding +, / and = survive form encoding both ways")
    func formHostileTokensRoundTrip() async throws {
        let configuration = ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600), tokenAlphabet: .formHostile)
        try await TestServer.with(configuration) { server in
            let first = try await server.login()
            for token in [first.accessToken, first.refreshToken] {
                #expect(token.contains("+") && token.contains("/") && token.hasSuffix("="))
            }
            #expect(try await server.get("/auth/me", token: first.accessToken).status == 200)
            let second = try await server.refresh(first.refreshToken)
            #expect(second.status == 200)
            // Sent raw, "+" would arrive as a space: the server must not be lenient about it.
            let raw = try await server.send(
                "POST",
                "/auth/token",
                headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data("grant_type=refresh_token&refresh_token=\(try second.decode(TokenBody.self).refreshToken)".utf8)
            )
            #expect(raw.status == 400)
        }
    }

    @Test("an expired refresh token is rejected with invalid_grant")
    func expiredRefreshToken() async throws {
        let configuration = ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600), refreshTokenTTL: .milliseconds(200))
        try await TestServer.with(configuration) { server in
            let token = try await server.login()
            try await Task.sleep(for: .milliseconds(300))
            let response = try await server.refresh(token.refreshToken)
            #expect(try response.decode(TokenErrorBody.self).error == "invalid_grant")
        }
    }
}
