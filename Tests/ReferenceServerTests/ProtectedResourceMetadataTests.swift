import Foundation
import RiderReferenceServer
import Testing

/// RFC 9728 on the reference server: the rider API's protected resource metadata, and the
/// `resource_metadata` every `401` of the API names.
@Suite("Protected resource metadata (RFC 9728)")
struct ProtectedResourceMetadataTests {
    struct Document: Decodable {
        var resource: String
        var authorizationServers: [String]
        var scopesSupported: [String]?
        var bearerMethodsSupported: [String]?
        var dpopSigningAlgValuesSupported: [String]?
        var dpopBoundAccessTokensRequired: Bool?

        enum CodingKeys: String, CodingKey {
            case resource
            case authorizationServers = "authorization_servers"
            case scopesSupported = "scopes_supported"
            case bearerMethodsSupported = "bearer_methods_supported"
            case dpopSigningAlgValuesSupported = "dpop_signing_alg_values_supported"
            case dpopBoundAccessTokensRequired = "dpop_bound_access_tokens_required"
        }
    }

    struct Issuer: Decodable { var issuer: String }

    static let path = "/.well-known/oauth-protected-resource"

    @Test("the document names the API's base URL as the resource and the server's issuer as its authorization server")
    func document() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0)) { server in
            let response = try await server.get(Self.path)
            #expect(response.status == 200)
            #expect(response.header("Cache-Control") == "public, max-age=3600")
            let document = try response.decode(Document.self)
            let origin = server.baseURL.absoluteString
            #expect(document.resource == origin)
            #expect(document.authorizationServers == [origin])
            #expect(try await server.get("/.well-known/oauth-authorization-server").decode(Issuer.self).issuer == origin)
            #expect(document.bearerMethodsSupported == ["header"])
            #expect(document.scopesSupported?.contains("openid") == true)
            #expect(document.dpopSigningAlgValuesSupported == nil && document.dpopBoundAccessTokensRequired == nil)
            #expect(try await server.get(Self.path, token: "not-needed").status == 200, "public: a token changes nothing")
        }
    }

    @Test("with DPoP on the document names its algorithm; required, it says only bound tokens are taken",
          arguments: [DPoPMode.supported, .required])
    func dpop(mode: DPoPMode) async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, dpop: mode)) { server in
            let document = try await server.get(Self.path).decode(Document.self)
            #expect(document.dpopSigningAlgValuesSupported == ["ES256"])
            #expect(document.dpopBoundAccessTokensRequired == (mode == .required ? true : nil))
        }
    }

    @Test("every 401 of the API names the metadata in its Bearer challenge", arguments: [
        ("/auth/me", nil), ("/riders/me", "made-up"), ("/users", nil), ("/users/search?q=a", "made-up"),
    ] as [(String, String?)])
    func challengesNameTheMetadata(path: String, token: String?) async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 1)) { server in
            let response = try await server.get(path, token: token)
            #expect(response.status == 401)
            let challenge = try #require(response.header("WWW-Authenticate"))
            let origin = server.baseURL.absoluteString
            #expect(challenge.hasPrefix(#"Bearer realm="rider", resource_metadata="\#(origin)\#(Self.path)""#), "\(challenge)")
        }
    }

    @Test("with DPoP on, the DPoP challenge names the metadata too, and the Bearer one follows it")
    func dpopChallenges() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, dpop: .supported)) { server in
            let origin = server.baseURL.absoluteString
            let metadata = #"resource_metadata="\#(origin)\#(Self.path)""#
            let anonymous = try #require(try await server.get("/auth/me").header("WWW-Authenticate"))
            #expect(anonymous == #"Bearer realm="rider", \#(metadata), DPoP algs="ES256", \#(metadata)"#)
            let refused = try #require(try await server.get("/auth/me", headers: ["Authorization": "DPoP made-up"])
                .header("WWW-Authenticate"))
            #expect(refused.hasPrefix(#"DPoP algs="ES256", \#(metadata), error="invalid_token""#), "\(refused)")
            #expect(refused.hasSuffix(#", Bearer realm="rider", \#(metadata)"#), "\(refused)")
        }
    }
}
