import Foundation
import RiderReferenceServer
import Testing

/// Pushed authorization requests (RFC 9126) on the reference server: `/oauth2/par` keeps a checked
/// request under a one-time `request_uri`, the authorization page takes it in its place, and —
/// required — takes nothing else. With `dpop_jkt` (RFC 9449 §10) the code is bound to a key.
@Suite("Pushed authorization requests")
struct PushedAuthorizationTests {
    typealias Code = AuthorizationCodeTests

    static func configuration(_ par: PushedAuthorizationMode, dpop: DPoPMode = .off) -> ReferenceServerConfiguration {
        ReferenceServerConfiguration(seedUsers: 3, accessTokenTTL: .seconds(3600), dpop: dpop, pushedAuthorization: par)
    }

    /// An authorization request's parameters, with `overrides` (a `nil` removes one).
    static func parameters(_ overrides: [String: String?] = [:]) -> [(String, String)] {
        var fields: [String: String?] = [
            "response_type": "code", "client_id": "rider-cli", "redirect_uri": Code.redirectURI, "state": "st-1",
            "nonce": "n-1", "code_challenge": Code.challenge, "code_challenge_method": "S256", "scope": "openid",
        ]
        for (name, value) in overrides { fields[name] = value }
        return fields.sorted { $0.key < $1.key }.compactMap { name, value in value.map { (name, $0) } }
    }

    /// Pushes `parameters`; returns the answer.
    static func push(_ server: TestServer, _ parameters: [(String, String)] = parameters()) async throws -> TestResponse {
        try await server.postForm("/oauth2/par", parameters)
    }

    /// The authorization page's address for a pushed request.
    static func pagePath(_ requestURI: String, clientID: String = "rider-cli") -> String {
        var components = URLComponents(string: "/oauth2/authorize")!
        components.queryItems = [URLQueryItem(name: "client_id", value: clientID),
                                 URLQueryItem(name: "request_uri", value: requestURI)]
        return components.string!
    }

    static func requestURI(of response: TestResponse) throws -> String {
        guard response.status == 201 else { throw TestFailure("PAR: \(response.status) \(response.text)") }
        let body = try response.object()
        #expect(body["expires_in"] as? Int == 90)
        #expect(response.header("Cache-Control") == "no-store")
        return try #require(body["request_uri"] as? String)
    }

    @Test("off by default: no endpoint in the metadata, /oauth2/par is 404, a request_uri is just an unknown parameter")
    func offByDefault() async throws {
        #expect(ReferenceServerConfiguration().pushedAuthorization == .off)
        try await TestServer.with(Self.configuration(.off)) { server in
            let metadata = try await server.get("/.well-known/oauth-authorization-server").object()
            #expect(metadata["pushed_authorization_request_endpoint"] == nil)
            #expect(metadata["require_pushed_authorization_requests"] == nil)
            #expect(try await Self.push(server).status == 404)
        }
    }

    @Test("supported: 201 with a request_uri; the page it opens signs in as the pushed request asked, and the code buys tokens")
    func pushedRequestSignsIn() async throws {
        try await TestServer.with(Self.configuration(.supported)) { server in
            let metadata = try await server.get("/.well-known/openid-configuration").object()
            #expect(metadata["pushed_authorization_request_endpoint"] as? String == "http://localhost/oauth2/par")
            #expect(metadata["require_pushed_authorization_requests"] == nil)
            let requestURI = try Self.requestURI(of: try await Self.push(server))
            #expect(requestURI.hasPrefix("urn:ietf:params:oauth:request_uri:"))

            let answer = try await Code.signIn(server, path: Self.pagePath(requestURI))
            #expect(answer.status == 303)
            let query = try Code.redirectQuery(answer)
            #expect(query["state"] == "st-1", "the pushed state, though the address carried none")
            let tokens = try await Code.redeem(server, code: try #require(query["code"]))
            #expect(tokens.status == 200, "\(tokens.text)")
            // Still supported, not required: a request in the address is taken too.
            #expect(try await server.get(Code.authorizePath()).status == 200)
        }
    }

    @Test("a request_uri is used once, only by the client that pushed it; an unknown or spent one gets a page, never a redirect")
    func requestURIOnceByItsClient() async throws {
        try await TestServer.with(Self.configuration(.supported)) { server in
            let requestURI = try Self.requestURI(of: try await Self.push(server))
            let other = try await server.get(Self.pagePath(requestURI, clientID: "rider-standard-client"))
            #expect(other.status == 400)
            #expect(other.header("Location") == nil)
            // Asked for by another client, it is spent all the same: a leaked one is dead.
            #expect(try await server.get(Self.pagePath(requestURI)).status == 400)

            let fresh = try Self.requestURI(of: try await Self.push(server))
            #expect(try await server.get(Self.pagePath(fresh)).status == 200)
            let again = try await server.get(Self.pagePath(fresh))
            #expect(again.status == 400)
            #expect(again.text.contains("already used"))
            #expect(try await server.get(Self.pagePath("urn:ietf:params:oauth:request_uri:guessed")).status == 400)
        }
    }

    @Test("a pushed request is checked as the page checks one; errors answer as the token endpoint's",
          arguments: [
              (["code_challenge": nil] as [String: String?], "invalid_request"),
              (["code_challenge_method": "plain"], "invalid_request"),
              (["response_type": "token"], "unsupported_response_type"),
              (["redirect_uri": "https://attacker.example/cb"], "invalid_request"),
              (["request_uri": "urn:ietf:params:oauth:request_uri:x"], "invalid_request"),
              (["dpop_jkt": "short"], "invalid_request"),
              (["scope": "openid\u{7}"], "invalid_scope"),
          ])
    func pushedRequestChecked(overrides: [String: String?], error: String) async throws {
        try await TestServer.with(Self.configuration(.supported)) { server in
            let answer = try await Self.push(server, Self.parameters(overrides))
            #expect(answer.status == 400)
            #expect(try answer.decode(TokenErrorBody.self).error == error)
        }
    }

    @Test("the client authenticates as at the token endpoint: an unknown client is 401 invalid_client with a Basic challenge")
    func clientAuthenticated() async throws {
        try await TestServer.with(Self.configuration(.supported)) { server in
            let unknown = try await Self.push(server, Self.parameters(["client_id": "someone-else"]))
            #expect(unknown.status == 401)
            #expect(try unknown.decode(TokenErrorBody.self).error == "invalid_client")
            #expect(unknown.header("WWW-Authenticate")?.hasPrefix("Basic") == true)
            let none = try await Self.push(server, Self.parameters(["client_id": nil]))
            #expect(none.status == 401)
        }
    }

    @Test("required: the metadata says so, and a request sent whole in the address is redirected back with invalid_request")
    func requiredRefusesUnpushed() async throws {
        try await TestServer.with(Self.configuration(.required)) { server in
            let metadata = try await server.get("/.well-known/openid-configuration").object()
            #expect(metadata["require_pushed_authorization_requests"] as? Bool == true)
            let direct = try await server.get(Code.authorizePath())
            #expect(direct.status == 303)
            let query = try Code.redirectQuery(direct)
            #expect(query["error"] == "invalid_request")
            #expect(query["state"] == "st-1")
            #expect(query["error_description"]?.contains("pushed authorization requests") == true)
            let pushed = try Self.requestURI(of: try await Self.push(server))
            #expect(try await server.get(Self.pagePath(pushed)).status == 200)
        }
    }

    @Test("dpop_jkt binds the code: redeemed with a proof of that key it buys DPoP tokens; with another key or none, invalid_grant")
    func dpopKeyThumbprintBindsTheCode() async throws {
        try await TestServer.with(Self.configuration(.supported, dpop: .supported)) { server in
            let key = ProofKey(), other = ProofKey()
            func code() async throws -> String {
                let requestURI = try Self.requestURI(of: try await Self.push(server, Self.parameters(["dpop_jkt": try key.thumbprint])))
                return try #require(try Code.redirectQuery(try await Code.signIn(server, path: Self.pagePath(requestURI)))["code"])
            }
            func redeem(_ code: String, provingWith proving: ProofKey?) async throws -> TestResponse {
                var headers = ["Content-Type": "application/x-www-form-urlencoded"]
                headers["DPoP"] = try await proving?.proof("POST", server.baseURL.absoluteString + "/auth/token")
                let form = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", Code.redirectURI),
                            ("code_verifier", Code.verifier), ("client_id", "rider-cli")]
                return try await server.send("POST", "/auth/token", headers: headers, body: Data(FormBody.encode(form).utf8))
            }
            let bound = try await redeem(try await code(), provingWith: key)
            #expect(bound.status == 200, "\(bound.text)")
            #expect(try bound.decode(TokenBody.self).tokenType == "DPoP")
            for wrong in [other, nil] {
                let refused = try await redeem(try await code(), provingWith: wrong)
                #expect(refused.status == 400)
                #expect(try refused.decode(TokenErrorBody.self).error == "invalid_grant")
            }
        }
    }

    @Test("a DPoP proof on the push binds the code as dpop_jkt does, and must name the same key")
    func proofOnThePush() async throws {
        try await TestServer.with(Self.configuration(.supported, dpop: .supported)) { server in
            let key = ProofKey(), other = ProofKey()
            func push(proving: ProofKey, jkt: String?) async throws -> TestResponse {
                let headers = ["Content-Type": "application/x-www-form-urlencoded",
                               "DPoP": try await proving.proof("POST", server.baseURL.absoluteString + "/oauth2/par")]
                let body = FormBody.encode(Self.parameters(["dpop_jkt": jkt]))
                return try await server.send("POST", "/oauth2/par", headers: headers, body: Data(body.utf8))
            }
            #expect(try await push(proving: key, jkt: nil).status == 201)
            #expect(try await push(proving: key, jkt: try key.thumbprint).status == 201)
            let mismatch = try await push(proving: other, jkt: try key.thumbprint)
            #expect(mismatch.status == 400)
            #expect(try mismatch.decode(TokenErrorBody.self).error == "invalid_dpop_proof")
        }
    }
}
