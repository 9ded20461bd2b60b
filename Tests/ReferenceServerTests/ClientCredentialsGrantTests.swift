import Foundation
import RiderReferenceServer
import Testing

/// The client credentials grant (RFC 6749 §4.4) on the reference server: only a client that
/// authenticates gets tokens, as itself — an account of its own, hidden, and no refresh token.
@Suite("Client credentials grant")
struct ClientCredentialsGrantTests {
    static func basic(_ id: String, _ secret: String) -> String {
        func encoded(_ text: String) -> String { FormBody.escape(text) }
        return "Basic " + Data("\(encoded(id)):\(encoded(secret))".utf8).base64EncodedString()
    }

    static func grant(_ server: TestServer, authorization: String?, form: [(String, String)] = [])
        async throws -> TestResponse {
        var headers = ["Content-Type": "application/x-www-form-urlencoded"]
        headers["Authorization"] = authorization
        let body = FormBody.encode([("grant_type", "client_credentials")] + form)
        return try await server.send("POST", "/auth/token", headers: headers, body: Data(body.utf8))
    }

    @Test("the standard client with its secret gets tokens for an account of its own, with no refresh token; /auth/me names it, listings do not")
    func standardClient() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 3)) { server in
            let metadata = try await server.get("/.well-known/openid-configuration").object()
            #expect((metadata["grant_types_supported"] as? [String])?.contains("client_credentials") == true)
            let answer = try await Self.grant(server, authorization: Self.basic(StandardOAuthClient.id, StandardOAuthClient.secret))
            #expect(answer.status == 200, "\(answer.text)")
            let body = try answer.object()
            #expect(body["refresh_token"] == nil)
            let token = try #require(body["access_token"] as? String)
            let me = try await server.get("/auth/me", token: token).object()
            #expect(me["email"] as? String == "rider-standard-client@clients.invalid")
            let again = try await Self.grant(server, authorization: Self.basic(StandardOAuthClient.id, StandardOAuthClient.secret))
            #expect(try again.object()["user_id"] as? String == body["user_id"] as? String, "the same account each time")
            let person = try await server.login()
            let listed = try await server.get("/users/search?q=rider-standard-client", token: person.accessToken).text
            #expect(!listed.contains("clients.invalid"), "hidden from searches: \(listed)")
        }
    }

    @Test("a client that does not authenticate cannot act as itself: the public client is unauthorized_client, a wrong secret invalid_client")
    func refused() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 3)) { server in
            let publicClient = try await Self.grant(server, authorization: nil, form: [("client_id", "rider-cli")])
            #expect(publicClient.status == 400)
            #expect(try publicClient.decode(TokenErrorBody.self).error == "unauthorized_client")
            let nobody = try await Self.grant(server, authorization: nil)
            #expect(try nobody.decode(TokenErrorBody.self).error == "unauthorized_client")
            let wrong = try await Self.grant(server, authorization: Self.basic(StandardOAuthClient.id, "guess"))
            #expect(wrong.status == 401)
            #expect(try wrong.decode(TokenErrorBody.self).error == "invalid_client")
        }
    }
}
