import Foundation
import RiderReferenceServer
import Testing

/// Dynamic client registration (RFC 7591) on the reference server: `POST /oauth2/register` takes
/// public native clients with loopback redirect URIs, and the client it registers then signs in
/// wherever the built-in `rider-cli` does, held to what it registered.
@Suite("Dynamic client registration (RFC 7591)")
struct ClientRegistrationTests {
    typealias Code = AuthorizationCodeTests
    typealias Device = DeviceAuthorizationTests

    static let configuration = ReferenceServerConfiguration(seedUsers: 3, accessTokenTTL: .seconds(3600),
                                                            devicePollInterval: .seconds(1))
    /// What RiderKit sends: a public native client with portless loopback redirect URIs.
    static let nativeClient = """
        {"client_name": "rider (test)", "redirect_uris": ["http://127.0.0.1/callback", "http://[::1]/callback"],
         "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
         "token_endpoint_auth_method": "none", "scope": "openid profile"}
        """

    static func register(_ server: TestServer, _ json: String = nativeClient) async throws -> TestResponse {
        try await server.postJSON("/oauth2/register", json)
    }

    /// Registers `json` and returns the new client id; fails unless it is `201`.
    static func clientID(_ server: TestServer, _ json: String = nativeClient) async throws -> String {
        let response = try await register(server, json)
        guard response.status == 201 else { throw TestFailure("registration: \(response.status) \(response.text)") }
        return try #require(try response.object()["client_id"] as? String)
    }

    static func error(_ response: TestResponse) throws -> String {
        try response.decode(TokenErrorBody.self).error
    }

    @Test("201 with a random client id, the issue time and the metadata as registered; never cached")
    func registers() async throws {
        try await TestServer.with(Self.configuration) { server in
            let response = try await Self.register(server)
            #expect(response.status == 201)
            #expect(response.header("Cache-Control") == "no-store")
            #expect(response.header("Content-Type") == "application/json")
            let body = try response.object()
            let id = try #require(body["client_id"] as? String)
            #expect(id.hasPrefix("dyn-") && id.count == 36, "128 random bits")
            #expect(try await Self.clientID(server) != id, "each registration is a client of its own")
            let issuedAt = try #require(body["client_id_issued_at"] as? Int)
            #expect(abs(Double(issuedAt) - Date().timeIntervalSince1970) < 60)
            #expect(body["client_name"] as? String == "rider (test)")
            #expect(body["redirect_uris"] as? [String] == ["http://127.0.0.1/callback", "http://[::1]/callback"])
            #expect(body["grant_types"] as? [String] == ["authorization_code", "refresh_token"])
            #expect(body["response_types"] as? [String] == ["code"])
            #expect(body["token_endpoint_auth_method"] as? String == "none")
            #expect(body["scope"] as? String == "openid profile")
            #expect(body["client_secret"] == nil, "a public client gets no secret")
            #expect(await server.store.registeredClientCount == 2)
        }
    }

    @Test("left out, the auth method is registered as none and the grant as authorization_code (RFC 7591 §2, §3.2.1)")
    func defaults() async throws {
        try await TestServer.with(Self.configuration) { server in
            let body = try await Self.register(server, #"{"redirect_uris": ["http://127.0.0.1:8123/cb"]}"#).object()
            #expect(body["token_endpoint_auth_method"] as? String == "none")
            #expect(body["grant_types"] as? [String] == ["authorization_code"])
            #expect(body["response_types"] as? [String] == ["code"])
            #expect(body["client_name"] == nil && body["scope"] == nil)
        }
    }

    @Test("both metadata documents name the registration endpoint")
    func metadata() async throws {
        try await TestServer.with(Self.configuration) { server in
            for path in ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"] {
                let document = try await server.get(path).object()
                #expect(document["registration_endpoint"] as? String == "http://localhost/oauth2/register")
            }
        }
    }

    @Test("the registered client signs in in the browser on any port of its redirect URI, and refreshes")
    func browserSignIn() async throws {
        try await TestServer.with(Self.configuration) { server in
            let id = try await Self.clientID(server)
            // Registered without a port, used with the one the program happened to listen on.
            let redirectURI = "http://127.0.0.1:50123/callback"
            let path = Code.authorizePath(["client_id": id, "redirect_uri": redirectURI])
            let page = try await server.get(path)
            #expect(page.text.contains(#"<strong id="client">rider (test) (\#(id))</strong>"#),
                    "the page names the registered client_name, with its id")
            let answer = try await Code.signIn(server, path: path)
            #expect(answer.status == 303)
            #expect(try #require(answer.header("Location")).hasPrefix(redirectURI + "?"))
            let code = try #require(try Code.redirectQuery(answer)["code"])
            let tokens = try await server.postForm("/auth/token", [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
                ("code_verifier", Code.verifier), ("client_id", id)])
            #expect(tokens.status == 200, "\(tokens.text)")
            let body = try tokens.decode(TokenBody.self)
            #expect(try await server.get("/auth/me", token: body.accessToken).status == 200)
            let refreshed = try await server.postForm("/auth/token", [
                ("grant_type", "refresh_token"), ("refresh_token", body.refreshToken), ("client_id", id)])
            #expect(refreshed.status == 200, "\(refreshed.text)")
            let revoked = try await server.postForm("/auth/revoke", [("token", body.accessToken), ("client_id", id)])
            #expect(revoked.status == 200)
            #expect(try await server.get("/auth/me", token: body.accessToken).status == 401)
        }
    }

    @Test("the code is only redeemed by the client it was issued to, with the same redirect URI")
    func codeBoundToClient() async throws {
        try await TestServer.with(Self.configuration) { server in
            let id = try await Self.clientID(server)
            let answer = try await Code.signIn(server, path: Code.authorizePath(["client_id": id]))
            let code = try #require(try Code.redirectQuery(answer)["code"])
            let asBuiltIn = try await Code.redeem(server, code: code)
            #expect(try Self.error(asBuiltIn) == "invalid_grant")
        }
    }

    @Test("a redirect URI it did not register gets a page, never a redirect", arguments: [
        "http://127.0.0.1:50123/other", "http://[::1]:50123/callback?x=1", "http://127.0.0.1:50123/callback/",
    ])
    func unregisteredRedirect(redirectURI: String) async throws {
        try await TestServer.with(Self.configuration) { server in
            let id = try await Self.clientID(server, #"{"redirect_uris": ["http://127.0.0.1/callback"]}"#)
            let response = try await server.get(Code.authorizePath(["client_id": id, "redirect_uri": redirectURI]))
            #expect(response.status == 400)
            #expect(response.header("Location") == nil)
        }
    }

    @Test("with PAR on, the registered client pushes its request and signs in with the request_uri")
    func pushedAuthorization() async throws {
        let configuration = ReferenceServerConfiguration(seedUsers: 3, accessTokenTTL: .seconds(3600),
                                                         pushedAuthorization: .required)
        try await TestServer.with(configuration) { server in
            let id = try await Self.clientID(server)
            let pushed = try await PushedAuthorizationTests.push(server, PushedAuthorizationTests.parameters(
                ["client_id": id, "redirect_uri": "http://[::1]:40000/callback"]))
            let requestURI = try PushedAuthorizationTests.requestURI(of: pushed)
            let answer = try await Code.signIn(server, path: PushedAuthorizationTests.pagePath(requestURI, clientID: id))
            #expect(answer.status == 303)
            #expect(try #require(answer.header("Location")).hasPrefix("http://[::1]:40000/callback?"))
            let elsewhere = try await PushedAuthorizationTests.push(server, PushedAuthorizationTests.parameters(
                ["client_id": id, "redirect_uri": "http://127.0.0.1:40000/elsewhere"]))
            #expect(elsewhere.status == 400)
        }
    }

    @Test("a client registered for the device grant signs in with a device code, and gets no refresh token without that grant")
    func deviceFlow() async throws {
        try await Device.withDeviceServer(Self.configuration) { server, clock in
            let id = try await Self.clientID(server, #"{"grant_types": ["\#(Device.deviceGrant)"], "client_name": "tv"}"#)
            let code = try await Device.start(server, [("client_id", id)])
            #expect(try await Device.answer(server, userCode: code.userCode).status == 200)
            clock.advance(by: 2)
            let anonymous = try await Device.poll(server, code)
            #expect(try Self.error(anonymous) == "invalid_grant", "the code was issued to the registered client")
            let tokens = try await Device.poll(server, code, extra: [("client_id", id)])
            #expect(tokens.status == 200, "\(tokens.text)")
            #expect(try tokens.object()["refresh_token"] == nil, "the client did not register refresh_token")
        }
    }

    @Test("a registered client is held to its grant types", arguments: [
        ("/oauth2/device_authorization", [] as [(String, String)]),
        ("/auth/token", [("grant_type", "refresh_token"), ("refresh_token", "whatever")]),
        ("/auth/token", [("grant_type", "client_credentials")]),
    ])
    func grantTypesEnforced(path: String, fields: [(String, String)]) async throws {
        try await TestServer.with(Self.configuration) { server in
            let id = try await Self.clientID(server, #"{"redirect_uris": ["http://127.0.0.1/cb"]}"#)
            let response = try await server.postForm(path, fields + [("client_id", id)])
            #expect(response.status == 400)
            #expect(try Self.error(response) == "unauthorized_client")
        }
    }

    @Test("a device-only client cannot start a browser sign-in")
    func browserNeedsTheCodeGrant() async throws {
        try await TestServer.with(Self.configuration) { server in
            let id = try await Self.clientID(server, #"{"grant_types": ["\#(Device.deviceGrant)"]}"#)
            // Without a registered redirect URI, no redirect can be trusted: a page.
            let response = try await server.get(Code.authorizePath(["client_id": id]))
            #expect(response.status == 400)
            #expect(response.header("Location") == nil)
        }
    }

    @Test("refused: a redirect URI that is not loopback http, or none for the code grant", arguments: [
        #"{"redirect_uris": ["https://evil.example/callback"]}"#,
        #"{"redirect_uris": ["https://127.0.0.1/callback"]}"#,
        #"{"redirect_uris": ["http://localhost:8000/callback"]}"#,
        #"{"redirect_uris": ["http://127.0.0.1/callback#frag"]}"#,
        #"{"redirect_uris": ["com.example.app:/callback"]}"#,
        #"{"redirect_uris": ["http://127.0.0.1/callback", "http://10.0.0.1/callback"]}"#,
        #"{"grant_types": ["authorization_code"]}"#,
        #"{"redirect_uris": []}"#,
    ])
    func invalidRedirect(json: String) async throws {
        try await TestServer.with(Self.configuration) { server in
            let response = try await Self.register(server, json)
            #expect(response.status == 400)
            #expect(response.header("Cache-Control") == "no-store")
            #expect(try Self.error(response) == "invalid_redirect_uri")
            #expect(await server.store.registeredClientCount == 0)
        }
    }

    @Test("refused: a confidential client, another grant or response type, or metadata of the wrong shape", arguments: [
        #"{"redirect_uris": ["http://127.0.0.1/cb"], "token_endpoint_auth_method": "client_secret_basic"}"#,
        #"{"redirect_uris": ["http://127.0.0.1/cb"], "token_endpoint_auth_method": "private_key_jwt"}"#,
        #"{"redirect_uris": ["http://127.0.0.1/cb"], "grant_types": ["authorization_code", "implicit"]}"#,
        #"{"redirect_uris": ["http://127.0.0.1/cb"], "grant_types": ["client_credentials"]}"#,
        #"{"redirect_uris": ["http://127.0.0.1/cb"], "grant_types": []}"#,
        #"{"redirect_uris": ["http://127.0.0.1/cb"], "response_types": ["token"]}"#,
        #"{"redirect_uris": ["http://127.0.0.1/cb"], "grant_types": ["refresh_token"], "response_types": ["code"]}"#,
        #"{"redirect_uris": "http://127.0.0.1/cb"}"#,
        #"{"redirect_uris": ["http://127.0.0.1/cb"], "client_name": "evil\u001b[2J"}"#,
        #"{"redirect_uris": ["http://127.0.0.1/cb"], "scope": "a\"b"}"#,
        #"["not an object"]"#,
        "not json",
    ])
    func invalidMetadata(json: String) async throws {
        try await TestServer.with(Self.configuration) { server in
            let response = try await Self.register(server, json)
            #expect(response.status == 400)
            #expect(try Self.error(response) == "invalid_client_metadata", "\(response.text)")
            #expect(await server.store.registeredClientCount == 0)
        }
    }

    @Test("a body that is not application/json is invalid_client_metadata")
    func wrongMediaType() async throws {
        try await TestServer.with(Self.configuration) { server in
            let response = try await server.postForm("/oauth2/register", [("redirect_uris", "http://127.0.0.1/cb")])
            #expect(response.status == 400)
            #expect(try Self.error(response) == "invalid_client_metadata")
        }
    }

    @Test("past the registration limit: 429 temporarily_unavailable, and the registered clients keep working")
    func limit() async throws {
        var configuration = Self.configuration
        configuration.registrationLimit = 2
        try await TestServer.with(configuration) { server in
            let first = try await Self.clientID(server)
            _ = try await Self.clientID(server)
            let third = try await Self.register(server)
            #expect(third.status == 429)
            #expect(try Self.error(third) == "temporarily_unavailable")
            #expect(try third.decode(TokenErrorBody.self).errorDescription.contains("--registration-limit"))
            #expect(await server.store.registeredClientCount == 2)
            #expect(try await server.get(Code.authorizePath(["client_id": first])).status == 200)
        }
    }

    @Test("registration off: 404, no registration_endpoint in either metadata document")
    func off() async throws {
        var configuration = Self.configuration
        configuration.clientRegistration = .off
        try await TestServer.with(configuration) { server async throws in
            #expect(try await Self.register(server).status == 404)
            for path in ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"] {
                #expect(try await server.get(path).object()["registration_endpoint"] == nil)
            }
        }
    }

    @Test("an unregistered client id is still unknown everywhere")
    func unknownClient() async throws {
        try await TestServer.with(Self.configuration) { server in
            let page = try await server.get(Code.authorizePath(["client_id": "dyn-00000000000000000000000000000000"]))
            #expect(page.status == 400)
            let device = try await server.postForm("/oauth2/device_authorization",
                                                    [("client_id", "dyn-00000000000000000000000000000000")])
            #expect(device.status == 401)
        }
    }
}
