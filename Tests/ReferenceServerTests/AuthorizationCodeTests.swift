import Foundation
import RiderReferenceServer
import Testing

/// The authorization code grant with PKCE on the reference server (RFC 6749 §4.1, RFC 7636,
/// RFC 9207, RFC 9700 §2.1.1): `/oauth2/authorize` and the `authorization_code` grant.
@Suite("Authorization code with PKCE")
struct AuthorizationCodeTests {
    // RFC 7636 Appendix B.
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
    static let redirectURI = "http://127.0.0.1:49152/callback"

    static func authorizePath(_ overrides: [String: String?] = [:]) -> String {
        var fields: [String: String?] = [
            "response_type": "code", "client_id": "rider-cli", "redirect_uri": redirectURI, "state": "st-1",
            "nonce": "n-1", "code_challenge": challenge, "code_challenge_method": "S256", "scope": "openid",
        ]
        for (name, value) in overrides { fields[name] = value }
        var components = URLComponents(string: "/oauth2/authorize")!
        components.queryItems = fields.sorted { $0.key < $1.key }.compactMap { name, value in
            value.map { URLQueryItem(name: name, value: $0) }
        }
        return components.string!
    }

    /// The query of a redirect's `Location`.
    static func redirectQuery(_ response: TestResponse) throws -> [String: String] {
        let location = try #require(response.header("Location"))
        let items = URLComponents(string: location)?.queryItems ?? []
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    /// Shows the page and answers it; returns the redirect.
    static func signIn(_ server: TestServer, path: String = authorizePath(), action: String = "approve",
                       password: String = "rider-demo") async throws -> TestResponse {
        let page = try await server.get(path)
        guard page.status == 200 else { throw TestFailure("page: \(page.status) \(page.text)") }
        let request = try #require(page.text.firstMatch(of: /name="request" value="([^"]+)"/)?.1)
        return try await server.postForm("/oauth2/authorize", [("request", String(request)), ("email", "demo@example.com"),
                                                               ("password", password), ("action", action)])
    }

    static func redeem(_ server: TestServer, code: String, verifier: String = verifier,
                       redirectURI: String = redirectURI) async throws -> TestResponse {
        try await server.postForm("/auth/token", [("grant_type", "authorization_code"), ("code", code),
                                                  ("redirect_uri", redirectURI), ("code_verifier", verifier),
                                                  ("client_id", "rider-cli")])
    }

    @Test("approve: 303 back to the loopback redirect with code, state and iss; the code and verifier buy tokens once")
    func approve() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 3)) { server in
            let answer = try await Self.signIn(server)
            #expect(answer.status == 303)
            let query = try Self.redirectQuery(answer)
            #expect(try #require(answer.header("Location")).hasPrefix(Self.redirectURI + "?"))
            #expect(query["state"] == "st-1")
            #expect(query["iss"] == "http://localhost")
            let code = try #require(query["code"])

            let tokens = try await Self.redeem(server, code: code)
            #expect(tokens.status == 200, "\(tokens.text)")
            let again = try await Self.redeem(server, code: code)
            #expect(again.status == 400)
            #expect(try again.decode(TokenErrorBody.self).error == "invalid_grant", "a code is spent on first use")
        }
    }

    @Test("a wrong verifier or redirect URI is invalid_grant, and spends the code")
    func pkceEnforced() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 3)) { server in
            let first = try #require(try Self.redirectQuery(try await Self.signIn(server))["code"])
            let wrongVerifier = try await Self.redeem(server, code: first, verifier: String(repeating: "a", count: 43))
            #expect(try wrongVerifier.decode(TokenErrorBody.self).error == "invalid_grant")
            #expect(try await Self.redeem(server, code: first).status == 400, "spent by the failed attempt")

            let second = try #require(try Self.redirectQuery(try await Self.signIn(server))["code"])
            let otherRedirect = try await Self.redeem(server, code: second, redirectURI: "http://127.0.0.1:1/callback")
            #expect(try otherRedirect.decode(TokenErrorBody.self).error == "invalid_grant")
        }
    }

    @Test("deny: back with access_denied, state and iss")
    func deny() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 3)) { server in
            let query = try Self.redirectQuery(try await Self.signIn(server, action: "deny"))
            #expect(query["error"] == "access_denied")
            #expect(query["state"] == "st-1")
            #expect(query["iss"] == "http://localhost")
            #expect(query["code"] == nil)
        }
    }

    @Test("a wrong password shows the form again; the request keeps waiting")
    func wrongPassword() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 3)) { server in
            let answer = try await Self.signIn(server, password: "wrong")
            #expect(answer.status == 403)
            #expect(answer.text.contains(#"role="alert""#))
            #expect(answer.header("Location") == nil)
        }
    }

    @Test("PKCE is required, S256 only; a bad response_type or scope is redirected back with the error",
          arguments: [(["code_challenge": nil], "invalid_request"), (["code_challenge_method": "plain"], "invalid_request"),
                      (["code_challenge_method": nil], "invalid_request"), (["code_challenge": "short"], "invalid_request"),
                      (["response_type": "token"], "unsupported_response_type"), (["scope": "a\"b"], "invalid_scope")])
    func refusedWithRedirect(overrides: [String: String?], error: String) async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 3)) { server in
            let response = try await server.get(Self.authorizePath(overrides))
            #expect(response.status == 303)
            let query = try Self.redirectQuery(response)
            #expect(query["error"] == error)
            #expect(query["state"] == "st-1")
            #expect(query["iss"] == "http://localhost")
        }
    }

    @Test("an unknown client or a redirect URI that is not loopback http gets a page, never a redirect",
          arguments: [["client_id": "someone-else"], ["client_id": nil], ["redirect_uri": "https://evil.example/cb"],
                      ["redirect_uri": "http://localhost:5000/cb"], ["redirect_uri": "http://127.0.0.1:5000/cb#frag"],
                      ["redirect_uri": nil]])
    func refusedWithoutRedirect(overrides: [String: String?]) async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 3)) { server in
            let response = try await server.get(Self.authorizePath(overrides))
            #expect(response.status == 400)
            #expect(response.header("Location") == nil)
            #expect(response.header("Content-Type") == "text/html; charset=utf-8")
        }
    }

    @Test("the metadata names the authorization endpoint, S256, iss in answers and the grant")
    func metadata() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 3)) { server in
            let document = try await server.get("/.well-known/openid-configuration").object()
            #expect(document["authorization_endpoint"] as? String == "http://localhost/oauth2/authorize")
            #expect(document["code_challenge_methods_supported"] as? [String] == ["S256"])
            #expect(document["authorization_response_iss_parameter_supported"] as? Bool == true)
            #expect((document["grant_types_supported"] as? [String])?.contains("authorization_code") == true)
            #expect(document["response_types_supported"] as? [String] == ["code"])
        }
    }
}
