import Foundation
import RiderReferenceServer
import Testing

/// Server nonces (RFC 9449 §8, §9): with `dpopNonces` every proof must carry the nonce the
/// server last gave, which rotates; a proof without it is answered `use_dpop_nonce`.
@Suite("DPoP: server nonces demanded, given and rotated")
struct DPoPNonceTests {
    static let configuration = ReferenceServerConfiguration(seedUsers: 3, accessTokenTTL: .seconds(3600),
                                                            dpop: .required, dpopNonces: true)

    static func login(_ server: TestServer, proof: String) async throws -> TestResponse {
        try await server.send("POST", "/auth/token",
                              headers: ["Content-Type": "application/x-www-form-urlencoded", "DPoP": proof],
                              body: Data(FormBody.encode(DPoPTests.passwordGrant).utf8))
    }

    @Test("the token endpoint answers a proof without the nonce 400 use_dpop_nonce with DPoP-Nonce, then takes it with")
    func tokenEndpoint() async throws {
        let clock = TestClock(Date())
        try await TestServer.with(Self.configuration, clock: clock) { server in
            let key = ProofKey(), url = DPoPTests.url(server, "/auth/token")
            let refused = try await Self.login(server, proof: try await key.proof("POST", url, iat: clock.now))
            #expect(refused.status == 400)
            #expect(try DPoPTests.tokenError(refused) == "use_dpop_nonce")
            let nonce = try #require(refused.header("DPoP-Nonce"))
            let wrong = try await Self.login(server, proof: try await key.proof("POST", url, iat: clock.now, nonce: "made-up"))
            #expect(try DPoPTests.tokenError(wrong) == "use_dpop_nonce")
            let taken = try await Self.login(server, proof: try await key.proof("POST", url, iat: clock.now, nonce: nonce))
            #expect(taken.status == 200, "\(taken.text)")
            #expect(try taken.decode(TokenBody.self).tokenType == "DPoP")
        }
    }

    @Test("the API answers a proof without the nonce 401 with WWW-Authenticate: DPoP error=\"use_dpop_nonce\"")
    func api() async throws {
        let clock = TestClock(Date())
        try await TestServer.with(Self.configuration, clock: clock) { server in
            let key = ProofKey()
            let nonce = try #require(try await server.get("/.well-known/openid-configuration").header("DPoP-Nonce"),
                                     "every response carries the nonce")
            let login = try await Self.login(server, proof: try await key.proof("POST", DPoPTests.url(server, "/auth/token"),
                                                                                 iat: clock.now, nonce: nonce))
            let token = try login.decode(TokenBody.self).accessToken
            let me = DPoPTests.url(server, "/auth/me")
            let refused = try await DPoPTests.get(server, "/auth/me", dpop: token,
                                                  proof: try await key.proof("GET", me, accessToken: token, iat: clock.now))
            #expect(refused.status == 401)
            let challenge = try #require(refused.header("WWW-Authenticate"))
            #expect(challenge.hasPrefix("DPoP ") && challenge.contains(#"error="use_dpop_nonce""#), "\(challenge)")
            #expect(refused.header("DPoP-Nonce") == nonce)
            let taken = try await DPoPTests.get(server, "/auth/me", dpop: token,
                                                proof: try await key.proof("GET", me, accessToken: token, iat: clock.now,
                                                                           nonce: nonce))
            #expect(taken.status == 200, "\(taken.text)")
        }
    }

    @Test("the nonce rotates every five minutes; the one before stays good for one more turn, older ones do not")
    func rotation() async throws {
        let clock = TestClock(Date())
        try await TestServer.with(Self.configuration, clock: clock) { server in
            let key = ProofKey(), url = DPoPTests.url(server, "/auth/token")
            let first = try #require(try await server.get("/jwks.json").header("DPoP-Nonce"))
            clock.advance(by: 301)
            let second = try #require(try await server.get("/jwks.json").header("DPoP-Nonce"))
            #expect(second != first, "rotated")
            let previous = try await Self.login(server, proof: try await key.proof("POST", url, iat: clock.now, nonce: first))
            #expect(previous.status == 200, "the nonce before is still taken: \(previous.text)")
            clock.advance(by: 301)
            let third = try #require(try await server.get("/jwks.json").header("DPoP-Nonce"))
            #expect(third != second)
            let stale = try await Self.login(server, proof: try await key.proof("POST", url, iat: clock.now, nonce: first))
            #expect(stale.status == 400)
            #expect(try DPoPTests.tokenError(stale) == "use_dpop_nonce")
            #expect(stale.header("DPoP-Nonce") == third)
        }
    }

    @Test("without dpopNonces no DPoP-Nonce is sent and none is demanded")
    func offByDefault() async throws {
        #expect(ReferenceServerConfiguration().dpopNonces == false)
        try await TestServer.with(DPoPTests.configuration(.required)) { server in
            let response = try await server.get("/jwks.json")
            #expect(response.header("DPoP-Nonce") == nil)
        }
    }
}
