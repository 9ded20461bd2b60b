import Foundation
import RiderReferenceServer
import Testing

@Suite("POST /auth/token")
struct TokenEndpointTests {
    @Test("the password grant returns bearer tokens that are not cached")
    func passwordGrant() async throws {
        try await TestServer.with { server in
            let response = try await server.postForm(
                "/auth/token",
                [("grant_type", "password"), ("username", "demo@example.com"), ("password", "rider-demo")]
            )
            #expect(response.status == 200)
            #expect(response.header("Cache-Control") == "no-store")
            #expect(response.header("Content-Type") == "application/json")
            let token = try response.decode(TokenBody.self)
            #expect(token.tokenType == "Bearer")
            #expect(token.expiresIn == 3600)
            #expect(token.userID == "u_000000")
            #expect(token.role == "user")
            #expect(token.scope == nil)
            #expect(token.accessToken.count == 43)
            #expect(token.accessToken != token.refreshToken)
            #expect(token.accessToken.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
            #expect(await server.store.issuedTokens() == [token.accessToken, token.refreshToken])
        }
    }

    @Test("the email is matched without regard to case")
    func emailCaseInsensitive() async throws {
        try await TestServer.with { server in
            let token = try await server.login("Demo@Example.COM", "rider-demo")
            #expect(token.userID == "u_000000")
        }
    }

    @Test("a wrong password and an unknown email both get invalid_grant with the same description")
    func wrongCredentials() async throws {
        try await TestServer.with { server in
            let wrongPassword = try await server.postForm(
                "/auth/token",
                [("grant_type", "password"), ("username", "demo@example.com"), ("password", "rider-demo!")]
            )
            let unknownUser = try await server.postForm(
                "/auth/token",
                [("grant_type", "password"), ("username", "nobody@example.com"), ("password", "rider-demo")]
            )
            for response in [wrongPassword, unknownUser] {
                #expect(response.status == 400)
                #expect(response.header("Content-Type") == "application/json")
                #expect(try response.decode(TokenErrorBody.self).error == "invalid_grant")
            }
            #expect(
                try wrongPassword.decode(TokenErrorBody.self).errorDescription
                    == unknownUser.decode(TokenErrorBody.self).errorDescription
            )
            #expect(await server.store.stats().failedTokenRequests == 2)
            #expect(await server.store.stats().passwordGrants == 0)
        }
    }

    @Test("seeded users log in with password-<id>")
    func seededUserLogin() async throws {
        try await TestServer.with { server in
            let user = try await server.get("/users/u_000042", token: server.login().accessToken).decode(UserBody.self)
            let token = try await server.login(user.email, "password-u_000042")
            #expect(token.userID == "u_000042")
        }
    }

    @Test(
        "malformed token requests get invalid_request or unsupported_grant_type",
        arguments: [
            ("grant_type=password&username=demo%40example.com", "invalid_request"),
            ("username=demo%40example.com&password=rider-demo", "invalid_request"),
            ("grant_type=refresh_token", "invalid_request"),
            ("grant_type=password&grant_type=password&username=demo%40example.com&password=rider-demo", "invalid_request"),
            ("grant_type=password&username=demo%40example.com&password=bad%ZZescape", "invalid_request"),
            ("grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer", "unsupported_grant_type"),
            ("grant_type=password&username=demo%40example.com&password=rider-demo&scope=%22quoted%22", "invalid_scope"),
        ]
    )
    func malformedRequests(body: String, error: String) async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let response = try await server.send(
                "POST",
                "/auth/token",
                headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data(body.utf8)
            )
            #expect(response.status == 400)
            #expect(try response.decode(TokenErrorBody.self).error == error)
        }
    }

    @Test("a body that is not form-encoded gets invalid_request")
    func wrongContentType() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let response = try await server.postJSON(
                "/auth/token",
                #"{"grant_type":"password","username":"demo@example.com","password":"rider-demo"}"#
            )
            #expect(response.status == 400)
            #expect(try response.decode(TokenErrorBody.self).error == "invalid_request")
        }
    }

    @Test("a requested scope is echoed back")
    func scopeEcho() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let response = try await server.postForm(
                "/auth/token",
                [("grant_type", "password"), ("username", "demo@example.com"), ("password", "rider-demo"), ("scope", "profile users")]
            )
            #expect(try response.decode(TokenBody.self).scope == "profile users")
        }
    }
}
