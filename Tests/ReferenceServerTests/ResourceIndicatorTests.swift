import Foundation
import RiderReferenceServer
import Testing

/// Resource indicators (RFC 8707) on the reference server: a token asked for with `resource` is
/// good only at that resource — the rider API (the base URL) or the small `/admin` resource —
/// and is refused at the other with `401 invalid_token`; a token asked for without one works as
/// it always has.
@Suite("Resource indicators (RFC 8707)")
struct ResourceIndicatorTests {
    typealias Code = AuthorizationCodeTests
    typealias Device = DeviceAuthorizationTests

    static let configuration = ReferenceServerConfiguration(seedUsers: 3, accessTokenTTL: .seconds(3600),
                                                            devicePollInterval: .seconds(1))
    /// The identifiers through the router, whose origin is `http://localhost`.
    static let api = "http://localhost"
    static let admin = "http://localhost/admin"
    static let adminMetadata = "http://localhost/.well-known/oauth-protected-resource/admin"
    static let apiMetadata = "http://localhost/.well-known/oauth-protected-resource"

    struct Tokens: Decodable {
        let accessToken: String
        let refreshToken: String?

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case refreshToken = "refresh_token"
        }
    }

    static func passwordGrant(_ server: TestServer, resource: String?, scope: String? = nil) async throws -> TestResponse {
        var fields = [("grant_type", "password"), ("username", "demo@example.com"), ("password", "rider-demo")]
        if let resource { fields.append(("resource", resource)) }
        if let scope { fields.append(("scope", scope)) }
        return try await server.postForm("/auth/token", fields)
    }

    static func tokens(_ response: TestResponse) throws -> Tokens {
        guard response.status == 200 else { throw TestFailure("token: \(response.status) \(response.text)") }
        return try response.decode(Tokens.self)
    }

    static func error(_ response: TestResponse) throws -> String {
        try response.decode(TokenErrorBody.self).error
    }

    /// Whether `token` is refused at `path` as a token for another resource, with a challenge
    /// naming `metadata`.
    static func refusedAsForAnotherResource(_ server: TestServer, _ path: String, token: String,
                                            metadata: String) async throws -> Bool {
        let response = try await server.get(path, token: token)
        let challenge = response.header("WWW-Authenticate") ?? ""
        return response.status == 401 && challenge.contains(#"error="invalid_token""#)
            && challenge.contains(#"resource_metadata="\#(metadata)""#) && challenge.contains("another resource")
    }

    @Test("the /admin resource has its own metadata, at the path-inserted well-known location (RFC 9728 §3.1)")
    func adminMetadataDocument() async throws {
        try await TestServer.with(Self.configuration) { server in
            let response = try await server.get("/.well-known/oauth-protected-resource/admin")
            #expect(response.status == 200)
            let document = try response.object()
            #expect(document["resource"] as? String == Self.admin)
            #expect(document["authorization_servers"] as? [String] == [Self.api])
            #expect(document["scopes_supported"] as? [String] == ["openid", "email", "profile"],
                    "rider:admin comes by stepping up")
            let unauthenticated = try await server.get("/admin/stats")
            #expect(unauthenticated.status == 401)
            #expect(unauthenticated.header("WWW-Authenticate")?.contains(#"resource_metadata="\#(Self.adminMetadata)""#) == true)
        }
    }

    @Test("a token for the API works there and is refused at /admin; one for /admin the other way round")
    func audienceRestricted() async throws {
        try await TestServer.with(Self.configuration) { server in
            let forAPI = try Self.tokens(try await Self.passwordGrant(server, resource: Self.api, scope: "rider:admin"))
            #expect(try await server.get("/auth/me", token: forAPI.accessToken).status == 200)
            #expect(try await Self.refusedAsForAnotherResource(server, "/admin/stats", token: forAPI.accessToken,
                                                               metadata: Self.adminMetadata))

            let forAdmin = try Self.tokens(try await Self.passwordGrant(server, resource: Self.admin, scope: "rider:admin"))
            #expect(try await server.get("/admin/stats", token: forAdmin.accessToken).status == 200)
            #expect(try await Self.refusedAsForAnotherResource(server, "/auth/me", token: forAdmin.accessToken,
                                                               metadata: Self.apiMetadata))
            #expect(try await Self.refusedAsForAnotherResource(server, "/riders/me", token: forAdmin.accessToken,
                                                               metadata: Self.apiMetadata))
        }
    }

    @Test("userinfo, the authorization server's, takes a token for either resource")
    func userinfo() async throws {
        try await TestServer.with(Self.configuration) { server in
            for resource in [Self.api, Self.admin] {
                let tokens = try Self.tokens(try await Self.passwordGrant(server, resource: resource, scope: "openid"))
                #expect(try await server.get("/userinfo", token: tokens.accessToken).status == 200)
            }
        }
    }

    @Test("a token asked for without a resource works at both, as before")
    func unrestricted() async throws {
        try await TestServer.with(Self.configuration) { server in
            let tokens = try Self.tokens(try await Self.passwordGrant(server, resource: nil, scope: "profile rider:admin"))
            #expect(try await server.get("/auth/me", token: tokens.accessToken).status == 200)
            #expect(try await server.get("/admin/stats", token: tokens.accessToken).status == 200)
        }
    }

    @Test("a trailing slash names the same resource", arguments: ["http://localhost/", "http://localhost/admin/"])
    func trailingSlash(resource: String) async throws {
        try await TestServer.with(Self.configuration) { server in
            let tokens = try Self.tokens(try await Self.passwordGrant(server, resource: resource, scope: "rider:admin"))
            let path = resource.hasSuffix("/admin/") ? "/admin/stats" : "/auth/me"
            #expect(try await server.get(path, token: tokens.accessToken).status == 200)
        }
    }

    @Test("an unknown, relative or fragment resource is invalid_target at the token endpoint", arguments: [
        "https://elsewhere.example/", "http://localhost/riders", "/admin", "http://localhost#top", "urn:example:api",
    ])
    func invalidTarget(resource: String) async throws {
        try await TestServer.with(Self.configuration) { server in
            let response = try await Self.passwordGrant(server, resource: resource)
            #expect(response.status == 400)
            #expect(try Self.error(response) == "invalid_target")
        }
    }

    @Test("two resources in one request are invalid_target: one token, one audience")
    func twoResources() async throws {
        try await TestServer.with(Self.configuration) { server in
            let response = try await server.postForm("/auth/token", [
                ("grant_type", "password"), ("username", "demo@example.com"), ("password", "rider-demo"),
                ("resource", Self.api), ("resource", Self.admin)])
            #expect(try Self.error(response) == "invalid_target")
        }
    }

    @Test("an unknown resource on the authorization request is sent back to the redirect URI as invalid_target")
    func invalidTargetOnAuthorization() async throws {
        try await TestServer.with(Self.configuration) { server in
            let response = try await server.get(Code.authorizePath(["resource": "https://elsewhere.example/mcp"]))
            #expect(response.status == 303)
            let query = try Code.redirectQuery(response)
            #expect(query["error"] == "invalid_target")
            #expect(query["state"] == "st-1")
            #expect(query["iss"] == Self.api)
        }
    }

    @Test("a browser sign-in for /admin: the code buys a token for /admin, never for the API")
    func codeFlow() async throws {
        try await TestServer.with(Self.configuration) { server in
            let path = Code.authorizePath(["resource": Self.admin, "scope": "openid rider:admin"])
            let first = try #require(try Code.redirectQuery(try await Code.signIn(server, path: path))["code"])
            let otherResource = try await server.postForm("/auth/token", [
                ("grant_type", "authorization_code"), ("code", first), ("redirect_uri", Code.redirectURI),
                ("code_verifier", Code.verifier), ("client_id", "rider-cli"), ("resource", Self.api)])
            #expect(try Self.error(otherResource) == "invalid_target")

            let second = try #require(try Code.redirectQuery(try await Code.signIn(server, path: path))["code"])
            let tokens = try Self.tokens(try await Code.redeem(server, code: second))
            #expect(try await server.get("/admin/stats", token: tokens.accessToken).status == 200)
            #expect(try await Self.refusedAsForAnotherResource(server, "/auth/me", token: tokens.accessToken,
                                                               metadata: Self.apiMetadata))
        }
    }

    @Test("a pushed request is checked for its resource too")
    func pushedAuthorization() async throws {
        let configuration = ReferenceServerConfiguration(seedUsers: 3, pushedAuthorization: .supported)
        try await TestServer.with(configuration) { server in
            let refused = try await PushedAuthorizationTests.push(
                server, PushedAuthorizationTests.parameters(["resource": "https://elsewhere.example/"]))
            #expect(refused.status == 400)
            #expect(try Self.error(refused) == "invalid_target")
            let pushed = try await PushedAuthorizationTests.push(
                server, PushedAuthorizationTests.parameters(["resource": Self.admin, "scope": "rider:admin"]))
            let requestURI = try PushedAuthorizationTests.requestURI(of: pushed)
            let answer = try await Code.signIn(server, path: PushedAuthorizationTests.pagePath(requestURI))
            let code = try #require(try Code.redirectQuery(answer)["code"])
            let tokens = try Self.tokens(try await Code.redeem(server, code: code))
            #expect(try await server.get("/admin/stats", token: tokens.accessToken).status == 200)
        }
    }

    @Test("a refresh keeps the grant's resource, and may not ask for another")
    func refreshKeepsTheAudience() async throws {
        try await TestServer.with(Self.configuration) { server in
            let tokens = try Self.tokens(try await Self.passwordGrant(server, resource: Self.admin, scope: "rider:admin"))
            let refreshToken = try #require(tokens.refreshToken)
            let elsewhere = try await server.postForm("/auth/token", [
                ("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("resource", Self.api)])
            #expect(try Self.error(elsewhere) == "invalid_target")

            // Refused for its resource, the refresh token is still good.
            let same = try Self.tokens(try await server.postForm("/auth/token", [
                ("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("resource", Self.admin)]))
            #expect(try await server.get("/admin/stats", token: same.accessToken).status == 200)
            let kept = try Self.tokens(try await server.refresh(try #require(same.refreshToken)))
            #expect(try await server.get("/admin/stats", token: kept.accessToken).status == 200)
            #expect(try await Self.refusedAsForAnotherResource(server, "/auth/me", token: kept.accessToken,
                                                               metadata: Self.apiMetadata))
        }
    }

    @Test("a refresh of an unrestricted grant may ask for one resource; the grant stays unrestricted")
    func refreshNarrows() async throws {
        try await TestServer.with(Self.configuration) { server in
            let tokens = try Self.tokens(try await Self.passwordGrant(server, resource: nil, scope: "rider:admin"))
            let narrowed = try Self.tokens(try await server.postForm("/auth/token", [
                ("grant_type", "refresh_token"), ("refresh_token", try #require(tokens.refreshToken)),
                ("resource", Self.admin)]))
            #expect(try await Self.refusedAsForAnotherResource(server, "/auth/me", token: narrowed.accessToken,
                                                               metadata: Self.apiMetadata))
            let next = try Self.tokens(try await server.refresh(try #require(narrowed.refreshToken)))
            #expect(try await server.get("/auth/me", token: next.accessToken).status == 200)
        }
    }

    @Test("a device sign-in for /admin gets a token for /admin")
    func deviceFlow() async throws {
        try await Device.withDeviceServer(Self.configuration) { server, clock in
            let code = try await Device.start(server, [("resource", Self.admin), ("scope", "rider:admin")])
            #expect(try await Device.answer(server, userCode: code.userCode).status == 200)
            clock.advance(by: 2)
            let otherResource = try await Device.poll(server, code, extra: [("resource", Self.api)])
            #expect(try Self.error(otherResource) == "invalid_target")
            let tokens = try Self.tokens(try await Device.poll(server, code))
            #expect(try await server.get("/admin/stats", token: tokens.accessToken).status == 200)
            #expect(try await Self.refusedAsForAnotherResource(server, "/auth/me", token: tokens.accessToken,
                                                               metadata: Self.apiMetadata))
            let refused = try await server.postForm("/oauth2/device_authorization", [("resource", "ftp://x.example/")])
            #expect(try Self.error(refused) == "invalid_target")
        }
    }

    @Test("the client credentials grant takes a resource too")
    func clientCredentials() async throws {
        try await TestServer.with(Self.configuration) { server in
            let response = try await server.postForm("/oauth2/token", [
                ("grant_type", "client_credentials"), ("client_id", StandardOAuthClient.id),
                ("client_secret", StandardOAuthClient.secret), ("resource", Self.admin)])
            let token = try #require(try response.object()["access_token"] as? String)
            #expect(try await Self.refusedAsForAnotherResource(server, "/auth/me", token: token, metadata: Self.apiMetadata))
        }
    }
}
