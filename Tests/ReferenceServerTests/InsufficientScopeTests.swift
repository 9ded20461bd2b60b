import Foundation
import RiderApplication
import RiderReferenceServer
import Testing

/// RFC 6750 §3.1 and RFC 9728 §5.1 on the reference server: `/admin/stats` needs `rider:admin`,
/// which the default sign-in does not ask for; without it the answer is `403` with a challenge
/// that RiderKit's own parser reads as `insufficient_scope` for that scope, and a sign-in asking
/// for it (the person approving) then opens the route.
@Suite("Insufficient scope (RFC 6750 §3.1)")
struct InsufficientScopeTests {
    typealias Code = AuthorizationCodeTests
    typealias Device = DeviceAuthorizationTests

    static let configuration = ResourceIndicatorTests.configuration

    /// The one challenge of a `403`, parsed as RiderKit parses it.
    static func challenge(_ response: TestResponse) throws -> AuthenticationChallenge {
        let header = try #require(response.header("WWW-Authenticate"))
        let challenges = try AuthenticationChallenge.parse(header)
        try #require(challenges.count == 1, "\(header)")
        return challenges[0]
    }

    @Test("a token without rider:admin: 403 insufficient_scope naming the scope and the resource's metadata")
    func refused() async throws {
        try await TestServer.with(Self.configuration) { server in
            // What a default browser sign-in asks for.
            let answer = try await Code.signIn(server, path: Code.authorizePath(["scope": "openid profile"]))
            let code = try #require(try Code.redirectQuery(answer)["code"])
            let tokens = try ResourceIndicatorTests.tokens(try await Code.redeem(server, code: code))
            let response = try await server.get("/admin/stats", token: tokens.accessToken)
            #expect(response.status == 403)
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(try response.object()["type"] as? String == "https://riderkit.invalid/problems/insufficient-scope")
            let challenge = try Self.challenge(response)
            #expect(challenge.isScheme("Bearer"))
            #expect(challenge.error == "insufficient_scope")
            #expect(challenge.scope == "rider:admin")
            #expect(challenge.resourceMetadata == ResourceIndicatorTests.adminMetadata)
            #expect(challenge.errorDescription?.isEmpty == false)
        }
    }

    @Test("after a browser sign-in that asks for rider:admin, the route answers 200")
    func browserStepUp() async throws {
        try await TestServer.with(Self.configuration) { server in
            let path = Code.authorizePath(["scope": "openid profile rider:admin", "resource": ResourceIndicatorTests.admin])
            let answer = try await Code.signIn(server, path: path)
            let code = try #require(try Code.redirectQuery(answer)["code"])
            let tokens = try ResourceIndicatorTests.tokens(try await Code.redeem(server, code: code))
            let response = try await server.get("/admin/stats", token: tokens.accessToken)
            #expect(response.status == 200)
            #expect(response.header("Cache-Control") == "no-store")
            let body = try response.object()
            #expect(body["users"] as? Int == 4)
            #expect(body["registered_clients"] as? Int == 0)
        }
    }

    @Test("after a device sign-in that asks for rider:admin, the route answers 200")
    func deviceStepUp() async throws {
        try await Device.withDeviceServer(Self.configuration) { server, clock in
            let code = try await Device.start(server, [("scope", "rider:admin")])
            #expect(try await Device.answer(server, userCode: code.userCode).status == 200)
            clock.advance(by: 2)
            let tokens = try ResourceIndicatorTests.tokens(try await Device.poll(server, code))
            #expect(try await server.get("/admin/stats", token: tokens.accessToken).status == 200)
        }
    }

    @Test("with a DPoP-bound token the challenge is a DPoP one")
    func dpopChallenge() async throws {
        let configuration = ReferenceServerConfiguration(seedUsers: 3, accessTokenTTL: .seconds(3600), dpop: .supported)
        try await TestServer.with(configuration) { server in
            let key = ProofKey()
            let tokens = try await DPoPTests.boundLogin(server, key: key)
            let proof = try await key.proof("GET", DPoPTests.url(server, "/admin/stats"), accessToken: tokens.accessToken)
            let response = try await DPoPTests.get(server, "/admin/stats", dpop: tokens.accessToken, proof: proof)
            #expect(response.status == 403)
            let challenge = try Self.challenge(response)
            #expect(challenge.isScheme("DPoP"))
            #expect(challenge.error == "insufficient_scope" && challenge.scope == "rider:admin")
        }
    }

    @Test("the authorization server lists rider:admin; neither resource's metadata does, so a sign-in from it steps up")
    func metadata() async throws {
        try await TestServer.with(Self.configuration) { server in
            let provider = try await server.get("/.well-known/oauth-authorization-server").object()
            #expect((provider["scopes_supported"] as? [String])?.contains("rider:admin") == true)
            for path in ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/admin"] {
                let resource = try await server.get(path).object()
                #expect((resource["scopes_supported"] as? [String])?.contains("rider:admin") == false)
            }
        }
    }

    @Test("a sign-in for /admin with its metadata's scopes meets 403, and one for the union of scopes opens the route")
    func stepUpFromTheMetadata() async throws {
        try await TestServer.with(Self.configuration) { server in
            let resource = try await server.get("/.well-known/oauth-protected-resource/admin").object()
            let scopes = try #require(resource["scopes_supported"] as? [String])
            let admin = try #require(resource["resource"] as? String)
            func signIn(_ scope: String) async throws -> String {
                let path = Code.authorizePath(["scope": scope, "resource": admin])
                let code = try #require(try Code.redirectQuery(try await Code.signIn(server, path: path))["code"])
                return try ResourceIndicatorTests.tokens(try await Code.redeem(server, code: code)).accessToken
            }
            let first = try await server.get("/admin/stats", token: try await signIn(scopes.joined(separator: " ")))
            #expect(first.status == 403)
            let needed = try #require(try Self.challenge(first).scope)
            let union = (scopes + needed.split(separator: " ").map(String.init)).joined(separator: " ")
            #expect(try await server.get("/admin/stats", token: try await signIn(union)).status == 200)
        }
    }
}
