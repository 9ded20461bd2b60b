import Foundation
import RiderReferenceServer
import Testing

@Suite("jwtAccessTokens: JWT access tokens without expires_in")
struct JWTAccessTokenTests {
    @Test("the token response has no expires_in; the access token is a JWT whose exp is the expiry, and it works")
    func jwtTokens() async throws {
        let configuration = ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(600), jwtAccessTokens: true)
        try await TestServer.with(configuration) { server in
            let before = Date().timeIntervalSince1970
            let response = try await server.postForm("/auth/token", [("grant_type", "password"),
                                                                     ("username", "demo@example.com"), ("password", "rider-demo")])
            #expect(response.status == 200)
            let body = try response.object()
            #expect(body["expires_in"] == nil)
            let token = try #require(body["access_token"] as? String)
            let parts = token.split(separator: ".")
            #expect(parts.count == 3)
            var payload = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
            let claimData = try #require(Data(base64Encoded: payload))
            let claims = try #require(try JSONSerialization.jsonObject(with: claimData) as? [String: Any])
            let exp = try #require(claims["exp"] as? Int)
            #expect(Double(exp) >= before.rounded(.down) + 599 && Double(exp) <= Date().timeIntervalSince1970 + 600)
            #expect(claims["sub"] as? String == "u_000000")
            #expect(try await server.get("/riders/me", token: token).status == 200)
        }
    }
}
