import Foundation
import Synchronization
import RiderApplication
import RiderDomain
import Testing
import TestSupport

/// OpenID Connect Core §3.1.3.7's checks of an id_token's claims.
@Suite("id_token claims")
struct IDTokenClaimsTests {
    static let issuer = "https://id.example.test"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func payload(_ overrides: [String: Any?] = [:]) throws -> Data {
        var claims: [String: Any] = ["iss": issuer, "sub": "u_1", "aud": "rider-cli", "exp": 1_800_000_600,
                                     "iat": 1_800_000_000, "nonce": "n-1", "email": "ada@example.com"]
        for (name, value) in overrides { claims[name] = value }
        return try JSONSerialization.data(withJSONObject: claims)
    }

    func check(_ overrides: [String: Any?] = [:], nonce: String? = "n-1") throws -> IDTokenClaims {
        try IDTokenClaims.checked(try Self.payload(overrides), issuer: Self.issuer, clientID: "rider-cli",
                                  nonce: nonce, now: Self.now)
    }

    @Test("a token for this client, from this issuer, fresh and with this sign-in's nonce names its subject")
    func accepted() throws {
        let claims = try check()
        #expect(claims.subject == "u_1")
        #expect(claims.email == "ada@example.com")
        #expect(try check(["aud": ["rider-cli", "api"], "azp": "rider-cli"]).subject == "u_1")
        #expect(try check(["nonce": nil], nonce: nil).subject == "u_1", "no nonce asked, none needed")
        #expect(try check(["exp": 1_800_000_000 - 200]).subject == "u_1", "five minutes of clock skew are forgiven")
    }

    @Test("a measured clock skew moves now by at most five minutes beyond the leeway: a year-old id_token in an answer dated a year ago is refused")
    func clockSkewBounded() throws {
        let year: TimeInterval = 365 * 86_400
        let old: [String: Any?] = ["iat": 1_800_000_000 - year, "exp": 1_800_000_600 - year]
        let thrown = #expect(throws: RiderError.self) {
            try IDTokenClaims.checked(try Self.payload(old), issuer: Self.issuer, clientID: "rider-cli", nonce: "n-1",
                                      now: Self.now, clockSkew: -year)
        }
        #expect(thrown?.code == .untrustedAuthorizationResponse)
        #expect(thrown?.message.contains("has expired (this device's clock is 525600 min ahead of the provider's") == true,
                "\(thrown?.message ?? "")")
        // Within the bound the skew is applied: eight minutes behind passes, as eight ahead does.
        for skew: TimeInterval in [-480, 480] {
            let shifted: [String: Any?] = ["iat": 1_800_000_000 + skew, "exp": 1_800_000_000 + skew + 60]
            #expect(try IDTokenClaims.checked(try Self.payload(shifted), issuer: Self.issuer, clientID: "rider-cli",
                                              nonce: "n-1", now: Self.now, clockSkew: skew).subject == "u_1")
        }
        // Eleven minutes is past five of skew and five of leeway, whatever the Date said.
        let future: [String: Any?] = ["iat": 1_800_000_000 + 660, "exp": 1_800_000_000 + 1_200]
        let refusal = #expect(throws: RiderError.self) {
            try IDTokenClaims.checked(try Self.payload(future), issuer: Self.issuer, clientID: "rider-cli", nonce: "n-1",
                                      now: Self.now, clockSkew: 660)
        }
        #expect(refusal?.code == .untrustedAuthorizationResponse, "\(String(describing: refusal))")
    }

    @Test("email_verified is read as a boolean or the string some providers send; anything else is not verified")
    func emailVerified() throws {
        #expect(try check(["email_verified": true]).identity.isEmailVerified)
        #expect(try check(["email_verified": "true"]).identity.isEmailVerified)
        #expect(try check(["email_verified": false]).identity.emailVerified == false)
        #expect(try check(["email_verified": "yes"]).identity.emailVerified == nil)
        #expect(try check().identity.isEmailVerified == false, "absent is not verified")
    }

    /// Overrides as JSON (`null` removes the claim), since test arguments must be Sendable.
    @Test("each failed check is refused with its own reason",
          arguments: [
            (#"{"iss": "https://evil.example"}"#, "issued by"),
            (#"{"aud": "someone-else"}"#, "another client"),
            (#"{"aud": ["rider-cli", "api"]}"#, "no authorized party"),
            (#"{"azp": "someone-else"}"#, "another party"),
            (#"{"exp": 1799999699}"#, "expired"),
            (#"{"iat": 1800000301}"#, "future"),
            (#"{"nonce": "n-2"}"#, "nonce"),
            (#"{"nonce": null}"#, "nonce"),
            (#"{"sub": ""}"#, "subject"),
            (#"{"sub": null}"#, "lacks a claim"),
            (#"{"exp": "tomorrow"}"#, "lacks a claim"),
          ])
    func refused(overrides json: String, reason: String) throws {
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? [:]
        let overrides = parsed.mapValues { $0 is NSNull ? nil : Optional($0) }
        let thrown = #expect(throws: RiderError.self) { try check(overrides) }
        #expect(thrown?.code == .untrustedAuthorizationResponse)
        #expect(thrown?.message.contains(reason) == true, "\(thrown?.message ?? "")")
    }
}

/// The provider's key set: fetched once, fetched again for a key it does not hold, at most once.
@Suite("Provider keys")
struct ProviderKeysTests {
    /// Takes a token to be the kid that signed it and a key set to be the kids it holds.
    struct KidVerifier: IDTokenSignatureVerifier {
        func verifiedPayload(of token: String, keySet: Data) async throws -> Data {
            let kids = String(decoding: keySet, as: UTF8.self).split(separator: ",").map(String.init)
            guard kids.contains(token) else { throw IDTokenSignatureFailure.unknownKey }
            return Data(token.utf8)
        }
    }

    final class KeySetServer: Sendable {
        let sets: [String]
        private let fetches = Mutex(0)
        init(_ sets: String...) { self.sets = sets }
        var count: Int { fetches.withLock { $0 } }
        func fetch() -> Data {
            let index = fetches.withLock { count -> Int in
                count += 1
                return count - 1
            }
            return Data(sets[min(index, sets.count - 1)].utf8)
        }
    }

    @Test("the set is fetched once for tokens signed with keys it holds")
    func fetchedOnce() async throws {
        let server = KeySetServer("a,b")
        let keys = ProviderKeys(verifier: KidVerifier())
        _ = try await keys.verifiedPayload(of: "a") { server.fetch() }
        _ = try await keys.verifiedPayload(of: "b") { server.fetch() }
        #expect(server.count == 1)
    }

    @Test("after a rotation the unknown kid fetches the set again, once, and verifies")
    func rotation() async throws {
        let server = KeySetServer("a", "b,a")
        let keys = ProviderKeys(verifier: KidVerifier())
        _ = try await keys.verifiedPayload(of: "a") { server.fetch() }
        #expect(try await keys.verifiedPayload(of: "b") { server.fetch() } == Data("b".utf8))
        #expect(server.count == 2)
    }

    @Test("a kid nobody publishes is refused after one fetch, not fetched for again and again")
    func madeUpKid() async throws {
        let server = KeySetServer("a")
        let keys = ProviderKeys(verifier: KidVerifier())
        let thrown = await #expect(throws: RiderError.self) { try await keys.verifiedPayload(of: "zz") { server.fetch() } }
        #expect(thrown?.code == .untrustedAuthorizationResponse)
        #expect(server.count == 1, "the set was fresh: no second fetch")
        let again = await #expect(throws: RiderError.self) { try await keys.verifiedPayload(of: "zz") { server.fetch() } }
        #expect(again?.code == .untrustedAuthorizationResponse, "\(String(describing: again))")
        #expect(server.count == 2, "a held set is fetched again once")
    }
}
