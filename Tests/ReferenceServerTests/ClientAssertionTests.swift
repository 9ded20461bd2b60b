import Crypto
import Foundation
import JWTKit
import RiderReferenceServer
import Testing

/// `private_key_jwt` client authentication (RFC 7523 §2.2) on the reference server: the key
/// client's assertions are taken where a client authenticates (here the pushed authorization
/// endpoint), and each way an assertion can be wrong is `401 invalid_client`.
@Suite("Client assertions (private_key_jwt)")
struct ClientAssertionTests {
    static let key = ES256PrivateKey()

    static func configuration() -> ReferenceServerConfiguration {
        ReferenceServerConfiguration(seedUsers: 3, pushedAuthorization: .supported,
                                     clientPublicKeyPEM: key.publicKey.pemRepresentation)
    }

    struct Claims: JWTPayload {
        var iss = KeyOAuthClient.id
        var sub = KeyOAuthClient.id
        var aud = "http://localhost"
        var jti: String? = UUID().uuidString
        var exp = Int(Date().timeIntervalSince1970) + 60
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    static func assertion(_ claims: Claims = Claims(), signedWith key: ES256PrivateKey = key) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: key)
        return try await keys.sign(claims)
    }

    /// A pushed request from the key client, authenticated with `assertion`.
    static func push(_ server: TestServer, assertion: String?, type: String? = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
        async throws -> TestResponse {
        var fields = PushedAuthorizationTests.parameters(["client_id": KeyOAuthClient.id])
        if let type { fields.append(("client_assertion_type", type)) }
        if let assertion { fields.append(("client_assertion", assertion)) }
        return try await server.postForm("/oauth2/par", fields)
    }

    @Test("a good assertion authenticates the key client; the metadata lists private_key_jwt")
    func accepted() async throws {
        try await TestServer.with(Self.configuration()) { server in
            let metadata = try await server.get("/.well-known/oauth-authorization-server").object()
            #expect((metadata["token_endpoint_auth_methods_supported"] as? [String])?.contains("private_key_jwt") == true)
            #expect(try await Self.push(server, assertion: try await Self.assertion()).status == 201)
            var toEndpoint = Claims()
            toEndpoint.aud = "http://localhost/oauth2/par"
            #expect(try await Self.push(server, assertion: try await Self.assertion(toEndpoint)).status == 201,
                    "the endpoint's own address is an audience too")
        }
    }

    @Test("refused with invalid_client: another key, another audience, expired, too long-lived, another issuer, no jti, a replay, no type")
    func refusals() async throws {
        try await TestServer.with(Self.configuration()) { server in
            var otherAudience = Claims(), expired = Claims(), longLived = Claims(), otherIssuer = Claims(), noJTI = Claims()
            otherAudience.aud = "https://elsewhere.example"
            expired.exp = Int(Date().timeIntervalSince1970) - 5
            longLived.exp = Int(Date().timeIntervalSince1970) + 3600
            otherIssuer.iss = "rider-cli"
            noJTI.jti = nil
            let replayed = try await Self.assertion()
            #expect(try await Self.push(server, assertion: replayed).status == 201)
            let cases: [(String, String?, String?)] = [
                ("another key", try await Self.assertion(signedWith: ES256PrivateKey()), nil),
                ("another audience", try await Self.assertion(otherAudience), nil),
                ("expired", try await Self.assertion(expired), nil),
                ("long-lived", try await Self.assertion(longLived), nil),
                ("another issuer", try await Self.assertion(otherIssuer), nil),
                ("no jti", try await Self.assertion(noJTI), nil),
                ("replayed", replayed, nil),
                ("no type", try await Self.assertion(), "none"),
            ]
            for (what, assertion, type) in cases {
                let answer = try await Self.push(server, assertion: assertion,
                                                 type: type == "none" ? nil : "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
                #expect(answer.status == 401, "\(what): \(answer.status) \(answer.text)")
                #expect((try? answer.decode(TokenErrorBody.self).error) == "invalid_client", "\(what)")
            }
        }
    }

    @Test("without a registered key the key client cannot authenticate, and the metadata does not offer private_key_jwt")
    func noKeyRegistered() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 3, pushedAuthorization: .supported)) { server in
            let metadata = try await server.get("/.well-known/oauth-authorization-server").object()
            #expect(metadata["token_endpoint_auth_methods_supported"] as? [String] == ["none"])
            #expect(try await Self.push(server, assertion: try await Self.assertion()).status == 401)
        }
    }
}
