import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

/// Whose session a standards sign-in is: the verified id_token's subject, else the userinfo
/// endpoint's, with an issuer's discovered endpoints and a scripted provider.
@Suite("OpenID Connect identity at sign-in")
struct OpenIDSignInTests {
    /// Trusts a token whose middle part is base64url JSON when the key set is `trusted`.
    struct PayloadVerifier: IDTokenSignatureVerifier {
        func verifiedPayload(of token: String, keySet: Data) async throws -> Data {
            guard keySet == Data("trusted".utf8) else { throw IDTokenSignatureFailure.invalidSignature }
            let parts = token.split(separator: ".")
            guard parts.count == 3, let payload = Data(base64Encoded: String(parts[1])) else {
                throw IDTokenSignatureFailure.malformedToken
            }
            return payload
        }
    }

    struct Rig {
        let transport = StubTransport()
        let vault = SpyTokenVault()
        let listener = ScriptedUserAgent()
        let configuration: APIConfiguration
        let sessions: SessionEngine
        let signIn: SignInWithBrowser

        /// - Parameter now: the device's clock.
        init(now: Date = Fixtures.epoch) throws {
            var configuration = try Fixtures.configuration(clientID: "rider-cli")
            configuration.scope = "openid email"
            self.configuration = configuration
            let clock = WaitingClock(now: now)
            let discovery = ProviderDiscovery(
                configuration: try .init(issuer: try #require(URL(string: ProviderDiscoveryTests.issuer))),
                transport: transport, cache: MemoryMetadataCache(), clock: ManualClock())
            let server = AuthorizationServer(configuration: configuration, discovery: discovery)
            sessions = SessionEngine(configuration: configuration, transport: transport, vault: vault, clock: clock,
                                     authorizationServer: server, idTokenVerifier: PayloadVerifier())
            signIn = SignInWithBrowser(sessions: sessions, userAgent: listener, cryptography: FixedCryptography(),
                                       clock: clock)
            transport.stub(.get, ProviderDiscoveryTests.openID, with: .successful(ProviderDiscoveryTests.document()))
            transport.stub(.get, "/jwks.json", with: .status(200, body: "trusted"))
            transport.stub(.post, "/oauth/revoke", with: .status(200))
        }

        /// An id_token whose claims are the good ones with `overrides`, the nonce the one sent.
        static func idToken(nonce: String, _ overrides: [String: Any] = [:]) throws -> String {
            var claims: [String: Any] = ["iss": ProviderDiscoveryTests.issuer, "sub": "oidc-sub-7", "aud": "rider-cli",
                                         "exp": Fixtures.epoch.timeIntervalSince1970 + 600,
                                         "iat": Fixtures.epoch.timeIntervalSince1970, "nonce": nonce,
                                         "email": "ana@example.com"]
            for (name, value) in overrides { claims[name] = value }
            return "e30." + (try JSONSerialization.data(withJSONObject: claims)).base64EncodedString() + ".sig"
        }

        /// Signs in; the provider's token response is what `tokens` makes of the nonce sent.
        func run(headers: HTTPHeaders = [:],
                 tokens: @escaping @Sendable (String) throws -> FixtureJSON) async throws -> Session {
            let listener = listener
            let transport = transport
            return try await signIn { _ in
                let state = listener.offeredQuery("state") ?? ""
                let nonce = listener.offeredQuery("nonce") ?? ""
                if let body = try? tokens(nonce) {
                    transport.stub(.post, "/oauth/token", times: 1, with: .successful(body, headers: headers))
                }
                listener.deliver("\(ScriptedUserAgent.redirectURI)?code=c&state=\(state)&iss=https%3A%2F%2Fid.example.test")
            }
        }
    }

    @Test("the session's account is the verified id_token's subject; the API is not asked who it is")
    func subjectFromIDToken() async throws {
        let rig = try Rig()
        let session = try await rig.run { nonce in
            Fixtures.tokenResponse(userID: nil, role: nil).setting("id_token", to: .string(try Rig.idToken(nonce: nonce)))
        }
        #expect(session.userID == UserID("oidc-sub-7"))
        #expect(session.identity == AccountIdentity(email: "ana@example.com", name: nil, source: .idToken))
        #expect(await rig.vault.storedSession?.identity == session.identity, "kept in the vault")
        #expect(rig.transport.count(.get, rig.configuration.mePath) == 0)
        #expect(rig.transport.count(.get, "/jwks.json") == 1)
    }

    @Test("an id_token for another nonce, or none at all, is refused: nothing stored, the tokens revoked")
    func refused() async throws {
        let bodies: [@Sendable (String) throws -> FixtureJSON] = [{ nonce in
            Fixtures.tokenResponse(userID: nil).setting("id_token", to: .string(try Rig.idToken(nonce: nonce + "x")))
        }, { _ in Fixtures.tokenResponse(userID: nil) }]
        for body in bodies {
            let rig = try Rig()
            let thrown = await #expect(throws: RiderError.self) { try await rig.run(tokens: body) }
            #expect(thrown?.code == .untrustedAuthorizationResponse)
            #expect(await rig.vault.storedSession == nil)
            #expect(rig.transport.count(.post, "/oauth/revoke") == 2, "refresh and access token, issued for nothing")
        }
    }

    @Test("exp and iat are read on the provider's clock: a device eight minutes behind still accepts a fresh id_token when the token response's Date shows the skew")
    func clockSkew() async throws {
        let rig = try Rig(now: Fixtures.epoch.addingTimeInterval(-480))
        let session = try await rig.run(headers: ["Date": HTTPDate.format(Fixtures.epoch)]) { nonce in
            Fixtures.tokenResponse(userID: nil, role: nil).setting("id_token", to: .string(try Rig.idToken(nonce: nonce)))
        }
        #expect(session.userID == UserID("oidc-sub-7"))

        let unaware = try Rig(now: Fixtures.epoch.addingTimeInterval(-480))
        let thrown = await #expect(throws: RiderError.self) {
            try await unaware.run { nonce in
                Fixtures.tokenResponse(userID: nil, role: nil).setting("id_token", to: .string(try Rig.idToken(nonce: nonce)))
            }
        }
        #expect(thrown?.code == .untrustedAuthorizationResponse, "\(String(describing: thrown))")
        #expect(thrown?.message.contains("future") == true, "without the Date header the skew is not known")
    }

    @Test("the Date header moves the id_token's clock by five minutes at most: a year-old id_token in an answer dated a year ago is refused, nothing stored, the tokens revoked")
    func clockSkewBounded() async throws {
        let yearAgo = Fixtures.epoch.addingTimeInterval(-365 * 86_400)
        let rig = try Rig()
        let thrown = await #expect(throws: RiderError.self) {
            try await rig.run(headers: ["Date": HTTPDate.format(yearAgo)]) { nonce in
                Fixtures.tokenResponse(userID: nil, role: nil).setting("id_token", to: .string(try Rig.idToken(
                    nonce: nonce, ["iat": yearAgo.timeIntervalSince1970,
                                   "exp": yearAgo.timeIntervalSince1970 + 600])))
            }
        }
        #expect(thrown?.code == .untrustedAuthorizationResponse)
        #expect(thrown?.message.contains("has expired") == true, "\(thrown?.message ?? "")")
        #expect(await rig.vault.storedSession == nil)
        #expect(rig.transport.count(.post, "/oauth/revoke") == 2)

        // Two hours is beyond the bound too: the person learns it is the device's clock.
        let behind = try Rig(now: Fixtures.epoch.addingTimeInterval(-7200))
        let refused = await #expect(throws: RiderError.self) {
            try await behind.run(headers: ["Date": HTTPDate.format(Fixtures.epoch)]) { nonce in
                Fixtures.tokenResponse(userID: nil, role: nil).setting("id_token", to: .string(try Rig.idToken(nonce: nonce)))
            }
        }
        #expect(refused?.code == .untrustedAuthorizationResponse, "\(String(describing: refused))")
        #expect(refused?.message.contains("this device's clock is 120 min behind the provider's") == true,
                "\(refused?.message ?? "")")
    }

    @Test("an id_token in a refresh answer is checked too (OpenID Connect §12.2): the same account renews, another is refused")
    func refresh() async throws {
        let rig = try Rig()
        _ = try await rig.run { nonce in
            Fixtures.tokenResponse(userID: nil, role: nil).setting("id_token", to: .string(try Rig.idToken(nonce: nonce)))
        }
        rig.transport.stub(.post, "/oauth/token", times: 1, with: .successful(Fixtures.tokenResponse(userID: nil, role: nil)
            .setting("id_token", to: .string(try Rig.idToken(nonce: "", ["email": "new@example.com"])))))
        let renewed = try await rig.sessions.refresh()
        #expect(renewed.userID == UserID("oidc-sub-7"))
        #expect(renewed.identity?.email == "new@example.com")

        rig.transport.stub(.post, "/oauth/token", with: .successful(Fixtures.tokenResponse(userID: nil, role: nil)
            .setting("id_token", to: .string(try Rig.idToken(nonce: "", ["sub": "someone-else"])))))
        let thrown = await #expect(throws: RiderError.self) { try await rig.sessions.refresh() }
        #expect(thrown?.code == .untrustedAuthorizationResponse)
        #expect(thrown?.message.contains("renewing the session was refused: the id_token names another account") == true,
                "\(thrown?.message ?? "")")
        #expect(await rig.vault.storedSession == nil, "the session ended: its refresh token is spent")
    }

    @Test("a refresh answer with a rotated refresh token and a refused id_token ends the session: vault emptied, signed out once, the new tokens revoked, the retired refresh token never sent again")
    func refusedRefreshAnswerEndsTheSession() async throws {
        let rig = try Rig()
        _ = try await rig.run { nonce in
            Fixtures.tokenResponse(userID: nil, role: nil).setting("id_token", to: .string(try Rig.idToken(nonce: nonce)))
        }
        let states = await rig.sessions.states()
        // The provider rotates: refresh-1 is spent once it answers, whatever RiderKit makes of it.
        let expired = Fixtures.epoch.timeIntervalSince1970 - 3600
        rig.transport.stub(.post, "/oauth/token", times: 1, with: .successful(
            Fixtures.tokenResponse(accessToken: "access-2", refreshToken: "refresh-2", userID: nil, role: nil)
                .setting("id_token", to: .string(try Rig.idToken(nonce: "", ["exp": expired, "iat": expired - 600])))))

        let thrown = await #expect(throws: RiderError.self) { try await rig.sessions.refresh() }
        #expect(thrown?.code == .untrustedAuthorizationResponse)
        #expect(thrown?.message.contains("The provider's answer to renewing the session was refused: the id_token has "
            + "expired. The session was ended") == true, "\(thrown?.message ?? "")")
        #expect(thrown?.message.contains("sign-in") == false, "worded for a refresh: \(thrown?.message ?? "")")
        #expect(await rig.vault.storedSession == nil)
        let revoked = rig.transport.requests(.post, "/oauth/revoke").map { String(decoding: $0.body ?? Data(), as: UTF8.self) }
        #expect(revoked.count == 2, "\(revoked)")
        #expect(revoked.contains { $0.contains("token=refresh-2") } && revoked.contains { $0.contains("token=access-2") },
                "what the refused answer issued is revoked: \(revoked)")

        // Whatever is asked next, the retired refresh token does not go to the token endpoint.
        let again = await #expect(throws: RiderError.self) { try await rig.sessions.refresh() }
        #expect(again?.code == .sessionExpired)
        let refreshes = rig.transport.requests(.post, "/oauth/token")
            .filter { String(decoding: $0.body ?? Data(), as: UTF8.self).contains("grant_type=refresh_token") }
        #expect(refreshes.count == 1, "one refresh sent, none with the spent token afterwards")

        // A sign-out after it closes the record of states: the expiry was published once before it.
        try await rig.sessions.end()
        var seen: [SessionState] = []
        for await state in states {
            if state == .signedOut(reason: .loggedOut) { break }
            seen.append(state)
        }
        #expect(seen.filter { $0 == .signedOut(reason: .sessionExpired) }.count == 1, "\(seen)")
        #expect(seen.last == .signedOut(reason: .sessionExpired), "\(seen)")
    }

    @Test("a device sign-in without an id_token takes the account and identity from the userinfo endpoint")
    func userinfo() async throws {
        let rig = try Rig()
        rig.transport.stub(.post, "/oauth/device", with: .successful(SignInWithDeviceCodeTests.Rig.authorization()))
        rig.transport.stub(.post, "/oauth/token", with: .successful(Fixtures.tokenResponse(userID: nil, role: nil)))
        rig.transport.stub(.get, "/userinfo", with: .successful(["sub": "oidc-sub-9", "email": "bo@example.com",
                                                                 "name": "Bo", "email_verified": true]))
        let device = SignInWithDeviceCode(sessions: rig.sessions, clock: ManualClock())
        let session = try await device.complete(try await device.start())
        #expect(session.userID == UserID("oidc-sub-9"))
        var identity = AccountIdentity(email: "bo@example.com", name: "Bo", source: .userinfo)
        identity.emailVerified = true
        #expect(session.identity == identity)
        #expect(session.identity?.isEmailVerified == true, "email_verified is read, for --account")
        #expect(rig.transport.requests(.get, "/userinfo").first?.headers["Authorization"] == "Bearer \(Fixtures.accessToken)")
        #expect(rig.transport.count(.get, rig.configuration.mePath) == 0)
    }

    @Test("an id_token naming another account than the server's user_id is refused")
    func subjectMismatch() async throws {
        let rig = try Rig()
        let refusal = await #expect(throws: RiderError.self) {
            try await rig.run { nonce in
                Fixtures.tokenResponse(userID: "u_other").setting("id_token", to: .string(try Rig.idToken(nonce: nonce)))
            }
        }
        #expect(refusal?.code == .untrustedAuthorizationResponse, "\(String(describing: refusal))")
        #expect(await rig.vault.storedSession == nil)
    }
}
