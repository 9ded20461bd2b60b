import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("Session expiry from a JWT's exp claim when expires_in is missing")
struct JWTExpiryTests {
    private func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private func login(accessToken: String, expiresIn: FixtureJSON? = nil) async throws -> (Session, UseCaseHarness) {
        let harness = try UseCaseHarness()
        harness.transport.stub(.post, "/auth/token", times: 1, with: .successful(
            Fixtures.tokenResponse(accessToken: accessToken, expiresIn: expiresIn)))
        return (try await harness.login(Fixtures.credentials), harness)
    }

    @Test("without expires_in the exp claim sets the expiry, so the refresh is scheduled before it")
    func expFromJWT() async throws {
        let exp = Int(Fixtures.epoch.timeIntervalSince1970) + 1800
        let token = base64URL(#"{"alg":"RS256"}"#) + "." + base64URL(#"{"sub":"u_000001","exp":\#(exp)}"#) + ".c2ln"

        let (session, harness) = try await login(accessToken: token)

        #expect(session.expiresAt == Fixtures.epoch.addingTimeInterval(1800))
        harness.stubTokenEndpoint(times: 1)
        harness.clock.advance(by: 1800 - 30)
        _ = try await harness.sessions.validSession()
        await harness.sessions.finishRefreshing()
        #expect(harness.transport.count(.post, "/auth/token") == 2, "refreshed within the leeway of exp")
    }

    @Test("expires_in, when present, wins over the claim")
    func expiresInWins() async throws {
        let exp = Int(Fixtures.epoch.timeIntervalSince1970) + 60
        let token = base64URL("{}") + "." + base64URL(#"{"exp":\#(exp)}"#) + ".sig"

        let (session, _) = try await login(accessToken: token, expiresIn: 3600)

        #expect(session.expiresAt == Fixtures.epoch.addingTimeInterval(3600))
    }

    @Test("a token that only looks like a JWT is opaque: no expiry, no error", arguments: [
        "not-a-jwt",
        "a.b",
        "a.!!!.c",
        "h." + "eyJleHAiOiJzb29uIn0" + ".s",  // {"exp":"soon"}
        "h." + "WzEsMiwzXQ" + ".s",  // [1,2,3]
        "h." + "eyJleHAiOi0xfQ" + ".s",  // {"exp":-1}
        "h." + "bm90IGpzb24" + ".s",  // not json
        "a.b.c.d",
        "h." + String(repeating: "A", count: 10_000) + ".s",
    ])
    func malformedIsOpaque(token: String) async throws {
        let (session, _) = try await login(accessToken: token)

        #expect(session.expiresAt == nil)
        #expect(session.accessToken == token)
    }
}
