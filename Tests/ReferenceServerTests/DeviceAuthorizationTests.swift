import Foundation
import RiderReferenceServer
import Testing

/// RFC 8628 on the reference server: `POST /oauth2/device_authorization`, the verification page
/// at `/device`, and the device code grant at the token endpoints. The server's clock stands
/// still (``TestClock``) and moves only when a test says so.
@Suite("Device authorization (RFC 8628)")
struct DeviceAuthorizationTests {
    static let deviceGrant = "urn:ietf:params:oauth:grant-type:device_code"
    /// A 1 s poll interval and a 10 min code lifetime, as the demo runs it.
    static let configuration = ReferenceServerConfiguration(
        seedUsers: 5, accessTokenTTL: .seconds(3600), devicePollInterval: .seconds(1))

    struct DeviceCode: Decodable {
        let deviceCode: String
        let userCode: String
        let verificationURI: String
        let verificationURIComplete: String
        let expiresIn: Int
        let interval: Int

        enum CodingKeys: String, CodingKey {
            case interval
            case deviceCode = "device_code"
            case userCode = "user_code"
            case verificationURI = "verification_uri"
            case verificationURIComplete = "verification_uri_complete"
            case expiresIn = "expires_in"
        }
    }

    static func withDeviceServer<T: Sendable>(
        _ configuration: ReferenceServerConfiguration = configuration,
        _ body: @Sendable (TestServer, TestClock) async throws -> T
    ) async throws -> T {
        let clock = TestClock()
        return try await TestServer.with(configuration, clock: clock) { server in try await body(server, clock) }
    }

    static func start(_ server: TestServer, _ fields: [(String, String)] = []) async throws -> DeviceCode {
        let response = try await server.postForm("/oauth2/device_authorization", fields)
        guard response.status == 200 else { throw TestFailure("device authorization failed: \(response.status) \(response.text)") }
        return try response.decode(DeviceCode.self)
    }

    static func poll(_ server: TestServer, _ code: DeviceCode, path: String = "/auth/token",
                     extra: [(String, String)] = []) async throws -> TestResponse {
        try await server.postForm(path, [("grant_type", deviceGrant), ("device_code", code.deviceCode)] + extra)
    }

    static func error(_ response: TestResponse) throws -> String {
        try response.decode(TokenErrorBody.self).error
    }

    static func answer(_ server: TestServer, userCode: String, action: String = "approve",
                       email: String = "demo@example.com", password: String = "rider-demo") async throws -> TestResponse {
        try await server.postForm("/device", [("user_code", userCode), ("email", email), ("password", password), ("action", action)])
    }

    @Test("a device code comes with an XXXX-XXXX user code, the verification page, the lifetime and the interval; never cached")
    func startAnswersTheContract() async throws {
        try await Self.withDeviceServer { server, _ in
            let response = try await server.postForm("/oauth2/device_authorization", [("scope", "profile")])
            #expect(response.status == 200)
            #expect(response.header("Cache-Control") == "no-store")
            #expect(response.header("Content-Type") == "application/json")
            #expect(try Set(response.object().keys) == ["device_code", "user_code", "verification_uri",
                                                         "verification_uri_complete", "expires_in", "interval"])
            let code = try response.decode(DeviceCode.self)
            #expect(code.deviceCode.count == 43, "256 random bits from the token generator")
            #expect(code.userCode.wholeMatch(of: /[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}/) != nil, "\(code.userCode)")
            #expect(code.verificationURI == "http://localhost/device")
            #expect(code.verificationURIComplete == "http://localhost/device?user_code=\(code.userCode)")
            #expect(code.expiresIn == 600)
            #expect(code.interval == 1)
            let other = try await Self.start(server)
            #expect(other.deviceCode != code.deviceCode && other.userCode != code.userCode)
            let bodyless = try await server.send("POST", "/oauth2/device_authorization")
            #expect(bodyless.status == 200, "the public client without a scope has nothing to send")
        }
    }

    @Test("the defaults are a 600 s lifetime and a 5 s interval")
    func defaults() async throws {
        try await Self.withDeviceServer(ReferenceServerConfiguration(seedUsers: 0)) { server, _ in
            let code = try await Self.start(server)
            #expect(code.expiresIn == 600)
            #expect(code.interval == 5)
        }
    }

    @Test("discovery names the device authorization endpoint and the device code grant")
    func discovery() async throws {
        try await Self.withDeviceServer { server, _ in
            for path in ["/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"] {
                let document = try await server.get(path).object()
                #expect(document["device_authorization_endpoint"] as? String == "http://localhost/oauth2/device_authorization")
                #expect(document["grant_types_supported"] as? [String]
                    == ["password", "authorization_code", "refresh_token", Self.deviceGrant, "client_credentials"])
            }
        }
    }

    @Test("pending until approved on the page; then the approving user's tokens, which work and refresh; then the code is spent")
    func approveThenRedeem() async throws {
        try await Self.withDeviceServer { server, clock in
            let code = try await Self.start(server)
            let pending = try await Self.poll(server, code)
            #expect(pending.status == 400)
            #expect(pending.header("Cache-Control") == "no-store")
            #expect(try Self.error(pending) == "authorization_pending")

            let page = try await Self.answer(server, userCode: code.userCode)
            #expect(page.status == 200)
            #expect(page.text.contains("You can close this tab and return to your terminal"))

            clock.advance(by: 1)
            let granted = try await Self.poll(server, code)
            #expect(granted.status == 200, "\(granted.text)")
            #expect(granted.header("Cache-Control") == "no-store")
            let token = try granted.decode(TokenBody.self)
            #expect(token.tokenType == "Bearer")
            #expect(token.userID == "u_000000")
            #expect(token.expiresIn == 3600)
            let me = try await server.get("/auth/me", token: token.accessToken)
            #expect(me.status == 200)
            #expect(try me.decode(UserBody.self).email == "demo@example.com")
            #expect(await server.store.stats().deviceCodeGrants == 1)

            clock.advance(by: 1)
            let spent = try await Self.poll(server, code)
            #expect(spent.status == 400)
            #expect(try Self.error(spent) == "invalid_grant")

            let refreshed = try await server.refresh(token.refreshToken)
            #expect(refreshed.status == 200)
            #expect(try refreshed.decode(TokenBody.self).userID == "u_000000")
        }
    }

    @Test("the session belongs to whoever approved the code")
    func approvingUserOwnsTheSession() async throws {
        try await Self.withDeviceServer { server, clock in
            let lookup = try await server.login().accessToken
            let email = try await server.get("/users/u_000003", token: lookup).decode(UserBody.self).email
            let code = try await Self.start(server)
            let page = try await Self.answer(server, userCode: code.userCode, email: email, password: "password-u_000003")
            #expect(page.status == 200, "\(page.text)")
            clock.advance(by: 1)
            #expect(try await Self.poll(server, code).decode(TokenBody.self).userID == "u_000003")
        }
    }

    @Test("denied on the page: access_denied, and the page says to go back to the terminal")
    func deny() async throws {
        try await Self.withDeviceServer { server, clock in
            let code = try await Self.start(server)
            let page = try await Self.answer(server, userCode: code.userCode, action: "deny")
            #expect(page.status == 200)
            #expect(page.text.contains("You can close this tab and return to your terminal"))
            let denied = try await Self.poll(server, code)
            #expect(denied.status == 400)
            #expect(try Self.error(denied) == "access_denied")
            clock.advance(by: 1)
            #expect(try Self.error(await Self.poll(server, code)) == "access_denied")
            let again = try await Self.answer(server, userCode: code.userCode, action: "approve")
            #expect(again.status == 400, "the first answer stands")
            #expect(try Self.error(await Self.poll(server, code)) == "access_denied")
        }
    }

    @Test("polling sooner than the interval answers slow_down, and from then on the interval is 5 s longer")
    func slowDown() async throws {
        try await Self.withDeviceServer { server, clock in
            let code = try await Self.start(server)
            #expect(try Self.error(await Self.poll(server, code)) == "authorization_pending")
            clock.advance(by: 0.5)
            #expect(try Self.error(await Self.poll(server, code)) == "slow_down")
            // The interval is now 6 s: the old 1 s is too soon.
            clock.advance(by: 1)
            #expect(try Self.error(await Self.poll(server, code)) == "slow_down", "1 s after a slow_down, the interval being 6 s")
            // Now 11 s, counted from that poll.
            clock.advance(by: 10.5)
            #expect(try Self.error(await Self.poll(server, code)) == "slow_down")
            clock.advance(by: 16)
            #expect(try Self.error(await Self.poll(server, code)) == "authorization_pending", "16 s after, the interval being 16 s")
            clock.advance(by: 16)
            #expect(try Self.error(await Self.poll(server, code)) == "authorization_pending")
        }
    }

    @Test("after expires_in the code answers expired_token, and the page refuses it")
    func expiry() async throws {
        try await Self.withDeviceServer { server, clock in
            let code = try await Self.start(server)
            clock.advance(by: 599)
            #expect(try Self.error(await Self.poll(server, code)) == "authorization_pending")
            clock.advance(by: 1)
            let expired = try await Self.poll(server, code)
            #expect(expired.status == 400)
            #expect(try Self.error(expired) == "expired_token")
            let page = try await Self.answer(server, userCode: code.userCode)
            #expect(page.status == 400)
            #expect(page.text.contains("expired"))
        }
    }

    @Test("an approved code not redeemed in time expires too")
    func approvedThenExpired() async throws {
        try await Self.withDeviceServer { server, clock in
            let code = try await Self.start(server)
            #expect(try await Self.answer(server, userCode: code.userCode).status == 200)
            clock.advance(by: 600)
            #expect(try Self.error(await Self.poll(server, code)) == "expired_token")
        }
    }

    @Test("a wrong password on the page is a 403 page keeping the code and email; the code stays pending")
    func wrongPassword() async throws {
        try await Self.withDeviceServer { server, clock in
            let code = try await Self.start(server)
            let page = try await Self.answer(server, userCode: code.userCode, password: "not-the-password")
            #expect(page.status == 403)
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            #expect(page.text.contains("The email or password is wrong."))
            #expect(page.text.contains(#"value="\#(code.userCode)""#))
            #expect(page.text.contains(#"value="demo@example.com""#))
            #expect(!page.text.contains("not-the-password"))
            #expect(try Self.error(await Self.poll(server, code)) == "authorization_pending")
            #expect(try await Self.answer(server, userCode: code.userCode).status == 200, "the right password still works")
            clock.advance(by: 1)
            #expect(try await Self.poll(server, code).status == 200)
        }
    }

    @Test("the page shares the password grant's throttle: ten failures for an email hold back even the right password")
    func throttleIsShared() async throws {
        try await Self.withDeviceServer { server, _ in
            let code = try await Self.start(server)
            for _ in 0..<9 {
                let response = try await server.postForm(
                    "/auth/token", [("grant_type", "password"), ("username", "demo@example.com"), ("password", "wrong-password")])
                #expect(response.status == 400)
            }
            #expect(try await Self.answer(server, userCode: code.userCode, password: "wrong-password").status == 403)
            let throttled = try await Self.answer(server, userCode: code.userCode)
            #expect(throttled.status == 429)
            #expect(throttled.header("Retry-After") != nil)
            #expect(throttled.header("Content-Type") == "text/html; charset=utf-8")
            #expect(try Self.error(await Self.poll(server, code)) == "authorization_pending")
            let login = try await server.postForm(
                "/auth/token", [("grant_type", "password"), ("username", "demo@example.com"), ("password", "rider-demo")])
            #expect(login.status == 429)
        }
    }

    /// Well-formed user codes that are not `code`: what someone guessing would type.
    static func guesses(_ count: Int, avoiding code: DeviceCode) -> [String] {
        let letters: [Character] = Array("BCDFGHJKLMNPQRSTVWXZ")
        var codes: [String] = []
        for index in 0..<(count + 1) {
            let first = letters[index / letters.count], second = letters[index % letters.count]
            let guess = "BBBB-BB" + String(first) + String(second)
            if guess != code.userCode { codes.append(guess) }
        }
        return Array(codes.prefix(count))
    }

    static func throttled(perEmail: Int, perClient: Int) -> ReferenceServerConfiguration {
        ReferenceServerConfiguration(seedUsers: 5, accessTokenTTL: .seconds(3600),
                                     loginThrottle: LoginThrottle(failuresPerEmail: perEmail, failuresPerClient: perClient,
                                                                  window: .seconds(300)),
                                     devicePollInterval: .seconds(1))
    }

    @Test("unknown user codes count in the login throttle, even from a person signed in as themselves: then the victim's code is refused unapproved")
    func unknownCodesThrottled() async throws {
        try await Self.withDeviceServer(Self.throttled(perEmail: 3, perClient: 100)) { server, clock in
            let victim = try await Self.start(server)
            let own = try await Self.start(server)
            var guesses = Self.guesses(3, avoiding: victim)
            for guess in guesses.prefix(2) {
                #expect(try await Self.answer(server, userCode: guess).status == 400, "\(guess)")
            }
            // Approving one's own device succeeds, and does not wipe the guesses counted so far.
            #expect(try await Self.answer(server, userCode: own.userCode).status == 200)
            #expect(try await Self.answer(server, userCode: guesses.removeLast()).status == 400)

            let held = try await Self.answer(server, userCode: victim.userCode)
            #expect(held.status == 429, "the right guess is held back, password or not")
            #expect(held.header("Retry-After") != nil)
            clock.advance(by: 1)
            #expect(try Self.error(await Self.poll(server, victim)) == "authorization_pending", "not approved")

            // Once the guesses leave the window, an answer is looked at again.
            clock.advance(by: 300)
            #expect(try await Self.answer(server, userCode: victim.userCode).status == 200)
        }
    }

    @Test("unknown user codes from one client count whatever the email, and a malformed code is not counted")
    func unknownCodesThrottledPerClient() async throws {
        try await Self.withDeviceServer(Self.throttled(perEmail: 100, perClient: 3)) { server, _ in
            let victim = try await Self.start(server)
            for _ in 0..<5 {
                #expect(try await Self.answer(server, userCode: "not-a-code").status == 400)
            }
            for (index, guess) in Self.guesses(3, avoiding: victim).enumerated() {
                let page = try await Self.answer(server, userCode: guess, email: "guesser\(index)@example.com")
                #expect(page.status == 400, "\(guess)")
            }
            #expect(try await Self.answer(server, userCode: victim.userCode).status == 429)
        }
    }

    /// Ways a person may type `BCDF-GHJK`.
    enum Spelling: String, CaseIterable, Sendable {
        case lowercase, withoutDash, spacedAndPadded

        func apply(_ code: String) -> String {
            switch self {
            case .lowercase: code.lowercased()
            case .withoutDash: code.replacingOccurrences(of: "-", with: "")
            case .spacedAndPadded: " " + code.replacingOccurrences(of: "-", with: " ").lowercased() + " "
            }
        }
    }

    @Test("the user code is compared without case and without the dash", arguments: Spelling.allCases)
    func userCodeSpelling(spelling: Spelling) async throws {
        try await Self.withDeviceServer { server, clock in
            let code = try await Self.start(server)
            let page = try await Self.answer(server, userCode: spelling.apply(code.userCode))
            #expect(page.status == 200, "\(page.text)")
            clock.advance(by: 1)
            #expect(try await Self.poll(server, code).status == 200)
        }
    }

    @Test("an unknown or malformed user code is a 400 page; missing fields and other actions are 400 pages")
    func badAnswers() async throws {
        try await Self.withDeviceServer { server, _ in
            let code = try await Self.start(server)
            for userCode in ["BCDF-GHJK", "AAAA-AAAA", "", "BCDF-GHJ", String(repeating: "B", count: 200)] where userCode != code.userCode {
                let page = try await Self.answer(server, userCode: userCode)
                #expect(page.status == 400, "\(userCode)")
                #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            }
            let noPassword = try await server.postForm("/device", [("user_code", code.userCode), ("email", "demo@example.com"), ("action", "approve")])
            #expect(noPassword.status == 400)
            let otherAction = try await Self.answer(server, userCode: code.userCode, action: "maybe")
            #expect(otherAction.status == 400)
            let json = try await server.postJSON("/device", #"{"user_code":"x"}"#)
            #expect(json.status == 415)
            #expect(json.header("Content-Type") == "text/html; charset=utf-8")
            #expect(try Self.error(await Self.poll(server, code)) == "authorization_pending")
        }
    }

    @Test("GET /device is a self-contained form with stable ids, locked down by its headers, prefilled from user_code")
    func page() async throws {
        try await Self.withDeviceServer { server, _ in
            let code = try await Self.start(server)
            let page = try await server.get("/device?user_code=" + code.userCode.lowercased())
            #expect(page.status == 200)
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            #expect(page.header("Content-Security-Policy") == "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'")
            #expect(page.header("X-Frame-Options") == "DENY")
            #expect(page.header("Cache-Control") == "no-store")
            let html = page.text
            #expect(html.hasPrefix("<!DOCTYPE html>"))
            for id in ["user_code", "email", "password", "approve", "deny"] {
                #expect(html.contains(#"id="\#(id)""#), "\(id)")
            }
            #expect(html.contains(#"<form method="post" action="/device">"#))
            #expect(html.contains(#"name="action" value="approve""#) && html.contains(#"name="action" value="deny""#))
            #expect(html.contains(#"id="user_code" name="user_code" value="\#(code.userCode)""#), "shown in its canonical form")
            #expect(!html.contains("<script") && !html.contains("src=") && !html.contains("http://") && !html.contains("https://"))
            let empty = try await server.get("/device")
            #expect(empty.status == 200)
            #expect(empty.text.contains(#"name="user_code" value="""#))
            let head = try await server.send("HEAD", "/device")
            #expect(head.status == 200 && head.body.isEmpty)
        }
    }

    @Test("a hostile user_code is escaped wherever the page shows it")
    func escaping() async throws {
        try await Self.withDeviceServer { server, _ in
            let hostile = #""><script>alert('x')</script><b a='&"#
            let page = try await server.get("/device?user_code=" + FormBody.escape(hostile))
            #expect(page.status == 200)
            #expect(!page.text.contains("<script>"))
            #expect(!page.text.contains(#""><"#))
            #expect(page.text.contains("&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&lt;b a=&#39;&amp;"))
            let posted = try await Self.answer(server, userCode: hostile, email: #"<img src=x onerror="alert(1)">"#)
            #expect(posted.status == 400)
            #expect(!posted.text.contains("<script>") && !posted.text.contains("<img"))
            let broken = try await server.get("/device?user_code=%zz")
            #expect(broken.status == 400)
            #expect(broken.header("Content-Type") == "text/html; charset=utf-8")
        }
    }

    @Test("a device code is redeemed only by the client that asked for it; the standard client authenticates")
    func clients() async throws {
        try await Self.withDeviceServer { server, clock in
            let unknown = try await server.postForm("/oauth2/device_authorization", [("client_id", "someone-else")])
            #expect(unknown.status == 401)
            #expect(try Self.error(unknown) == "invalid_client")
            let noSecret = try await server.postForm("/oauth2/device_authorization", [("client_id", StandardOAuthClient.id)])
            #expect(try Self.error(noSecret) == "invalid_client")

            let credentials = [("client_id", StandardOAuthClient.id), ("client_secret", StandardOAuthClient.secret)]
            let standard = try await Self.start(server, credentials)
            let publicCode = try await Self.start(server)
            #expect(try await Self.answer(server, userCode: standard.userCode).status == 200)
            #expect(try await Self.answer(server, userCode: publicCode.userCode).status == 200)
            clock.advance(by: 1)

            // The public client's code through the standard client, and the other way round.
            #expect(try Self.error(await Self.poll(server, publicCode, path: "/oauth2/token", extra: credentials)) == "invalid_grant")
            #expect(try Self.error(await Self.poll(server, standard)) == "invalid_grant")
            #expect(try Self.error(await Self.poll(server, standard, extra: [("client_id", "someone-else")])) == "invalid_client")

            let standardTokens = try await Self.poll(server, standard, path: "/oauth2/token", extra: credentials)
            #expect(standardTokens.status == 200, "\(standardTokens.text)")
            #expect(try Set(standardTokens.object().keys) == ["access_token", "token_type", "expires_in", "refresh_token"])
            let publicTokens = try await Self.poll(server, publicCode)
            #expect(publicTokens.status == 200)
        }
    }

    @Test("bad device authorization requests are RFC 6749 errors; a missing device_code is invalid_request")
    func badRequests() async throws {
        try await Self.withDeviceServer { server, _ in
            let repeated = try await server.postForm("/oauth2/device_authorization", [("scope", "a"), ("scope", "b")])
            #expect(repeated.status == 400)
            #expect(try Self.error(repeated) == "invalid_request")
            let json = try await server.postJSON("/oauth2/device_authorization", "{}")
            #expect(try Self.error(json) == "invalid_request")
            let scope = try await server.postForm("/oauth2/device_authorization", [("scope", "bad\"scope")])
            #expect(try Self.error(scope) == "invalid_scope")
            let missing = try await server.postForm("/auth/token", [("grant_type", Self.deviceGrant)])
            #expect(try Self.error(missing) == "invalid_request")
            let unknown = try await server.postForm("/auth/token", [("grant_type", Self.deviceGrant), ("device_code", "nope")])
            #expect(try Self.error(unknown) == "invalid_grant")
        }
    }

    @Test("with the password grant off (--no-password-grant) the metadata leaves it out, the token endpoint refuses it, and the device code still signs in")
    func passwordGrantOff() async throws {
        var configuration = Self.configuration
        configuration.passwordGrant = false
        try await Self.withDeviceServer(configuration) { server, clock in
            let metadata = try await server.get("/.well-known/openid-configuration")
            let grants = try #require(try JSONSerialization.jsonObject(with: Data(metadata.text.utf8)) as? [String: Any])["grant_types_supported"] as? [String]
            #expect(grants == ["authorization_code", "refresh_token", Self.deviceGrant, "client_credentials"])

            let password = try await server.postForm("/auth/token", [("grant_type", "password"),
                                                                     ("username", "demo@example.com"), ("password", "rider-demo")])
            #expect(password.status == 400)
            #expect(try Self.error(password) == "unsupported_grant_type")

            let code = try await Self.start(server)
            #expect(try await Self.answer(server, userCode: code.userCode).status == 200)
            clock.advance(by: 1)
            #expect(try await Self.poll(server, code).status == 200)
        }
    }

    @Test("wrong methods answer 405 with Allow, neighbouring paths 404")
    func routing() async throws {
        try await Self.withDeviceServer { server, _ in
            let get = try await server.get("/oauth2/device_authorization")
            #expect(get.status == 405)
            #expect(get.header("Allow") == "POST")
            let put = try await server.send("PUT", "/device")
            #expect(put.status == 405)
            #expect(put.header("Allow") == "GET, POST, HEAD")
            #expect(put.header("Content-Type") == "application/problem+json")
            for path in ["/device/", "/devices", "/oauth2/device", "/oauth2/device_authorization/x"] {
                #expect(try await server.get(path).status == 404, "\(path)")
            }
        }
    }
}
