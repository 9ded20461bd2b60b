import Foundation
import RiderReferenceServer
import Testing

@Suite("Test hooks")
struct StatsTests {
    static let hooksOn = ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600), enableTestHooks: true)

    @Test("GET /_test/stats reports grants, failures and requests, and does not count itself")
    func statsRoute() async throws {
        try await TestServer.with(Self.hooksOn) { server in
            let token = try await server.login()
            _ = try await server.refresh(token.refreshToken)
            _ = try await server.refresh(token.refreshToken)
            _ = try await server.get("/nope")
            let first = try await server.get("/_test/stats")
            #expect(first.status == 200)
            let object = try first.object()
            #expect(Set(object.keys) == ["password_grants", "refresh_grants", "device_code_grants", "authorization_code_grants",
                                         "failed_token_requests", "requests"])
            #expect(object["password_grants"] as? Int == 1)
            #expect(object["refresh_grants"] as? Int == 1)
            #expect(object["failed_token_requests"] as? Int == 1)
            #expect(object["requests"] as? Int == 4)
            let second = try await server.get("/_test/stats").object()
            #expect(second["requests"] as? Int == 4)
            #expect(await server.store.stats() == ReferenceStore.Stats(passwordGrants: 1, refreshGrants: 1, failedTokenRequests: 1, requests: 4))
        }
    }

    @Test("metadata requests are counted per document; with metadataNoStore every document is sent no-store")
    func metadataRequests() async throws {
        let documents = ["/.well-known/openid-configuration", "/.well-known/oauth-authorization-server",
                         "/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/admin"]
        var noStore = Self.hooksOn
        noStore.metadataNoStore = true
        for configuration in [Self.hooksOn, noStore] {
            try await TestServer.with(configuration) { server in
                for document in documents {
                    let response = try await server.get(document)
                    #expect(response.status == 200, "\(document)")
                    #expect(response.header("Cache-Control")
                        == (configuration.metadataNoStore ? "no-store" : "public, max-age=3600"), "\(document)")
                }
                _ = try await server.get("/.well-known/openid-configuration")
                _ = try await server.get("/.well-known/nothing-here")
                let counted = await server.store.stats().metadataRequests
                #expect(counted == ["/.well-known/openid-configuration": 2, "/.well-known/oauth-authorization-server": 1,
                                    "/.well-known/oauth-protected-resource": 1,
                                    "/.well-known/oauth-protected-resource/admin": 1],
                        "served documents only")
                let object = try await server.get("/_test/stats").object()
                #expect(object["metadata_requests"] == nil, "/_test/stats keeps its shape")
            }
        }
    }

    @Test("issuedTokens() lists every access and refresh token in order")
    func issuedTokens() async throws {
        try await TestServer.with(Self.hooksOn) { server in
            let first = try await server.login()
            let second = try await server.refresh(first.refreshToken).decode(TokenBody.self)
            #expect(await server.store.issuedTokens() == [first.accessToken, first.refreshToken, second.accessToken, second.refreshToken])
        }
    }

    @Test("POST /_test/expire-access-tokens expires access tokens for out-of-process tests")
    func expireRoute() async throws {
        try await TestServer.with(Self.hooksOn) { server in
            let token = try await server.login()
            #expect(try await server.send("POST", "/_test/expire-access-tokens").status == 204)
            #expect(try await server.get("/auth/me", token: token.accessToken).status == 401)
        }
    }
}
