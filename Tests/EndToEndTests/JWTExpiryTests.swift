import Foundation
import RiderReferenceServer
import Testing

@Suite("rider CLI: expiry read from a JWT access token")
struct JWTExpiryTests {
    @Test("a server that states expiry only in the JWT's exp: rider knows when the session expires")
    func expiryFromJWT() async throws {
        let configuration = ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600), jwtAccessTokens: true)
        try await withSandboxedReferenceServer(configuration) { server, sandbox in
            let before = Date()
            #expect(try await sandbox.loginAsDemo().status == 0)
            let show = try await sandbox.rider("session", "show", "--json")
            #expect(show.status == 0, "\(show)")
            let body = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
            let seconds = try #require(body["expires_in_seconds"] as? Int, "expiry known: \(show)")
            #expect(seconds > 3000 && seconds <= 3600 + Int(Date().timeIntervalSince(before)) + 1, "\(show)")
            #expect(try await sandbox.rider("whoami").status == 0)
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }
}
