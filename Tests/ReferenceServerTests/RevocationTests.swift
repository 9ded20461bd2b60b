import Foundation
import RiderReferenceServer
import Testing

@Suite("POST /auth/revoke")
struct RevocationTests {
    @Test("revoking a refresh token ends it and the access tokens of its grant")
    func revokeRefreshToken() async throws {
        try await TestServer.with { server in
            let token = try await server.login()
            let response = try await server.postForm("/auth/revoke", [("token", token.refreshToken), ("token_type_hint", "refresh_token")])
            #expect(response.status == 200)
            #expect(response.body.isEmpty)
            #expect(try await server.refresh(token.refreshToken).decode(TokenErrorBody.self).error == "invalid_grant")
            let me = try await server.get("/auth/me", token: token.accessToken)
            #expect(me.status == 401)
            #expect(me.header("WWW-Authenticate")?.contains(#"error="invalid_token""#) == true)
        }
    }

    @Test("revoking an access token leaves the refresh token usable")
    func revokeAccessToken() async throws {
        try await TestServer.with { server in
            let token = try await server.login()
            #expect(try await server.postForm("/auth/revoke", [("token", token.accessToken)]).status == 200)
            #expect(try await server.get("/auth/me", token: token.accessToken).status == 401)
            #expect(try await server.refresh(token.refreshToken).status == 200)
        }
    }

    @Test("revoking an unknown token still answers 200")
    func revokeUnknownToken() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let response = try await server.postForm("/auth/revoke", [("token", "never-issued+/=")])
            #expect(response.status == 200)
        }
    }

    @Test("a revoke without a token is a 400 problem naming the field")
    func revokeWithoutToken() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let response = try await server.postForm("/auth/revoke", [("token_type_hint", "access_token")])
            #expect(response.status == 400)
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(try response.decode(ProblemBody.self).fields == ["token"])
        }
    }
}
