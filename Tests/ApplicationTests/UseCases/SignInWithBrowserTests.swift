import Foundation
import Synchronization
import RiderApplication
import RiderDomain
import RiderKitTesting
import Testing
import TestSupport

/// The browser sign-in from the client's side: a scripted provider, a scripted user agent that
/// answers in memory as the loopback listener would, and the answer's checks.
@Suite("Browser sign-in")
struct SignInWithBrowserTests {
    static let authorizePath = "https://login.example.test/authorize?tenant=riders"

    struct Rig {
        let transport = StubTransport()
        let vault = SpyTokenVault()
        let listener = ScriptedUserAgent()
        let configuration: APIConfiguration
        let signIn: SignInWithBrowser

        /// Without `openid`: the OpenID Connect part has its own suite (OpenIDSignInTests).
        init(clientID: String? = "rider-cli", scope: String? = "profile email", clock: any Clock = WaitingClock()) throws {
            var configuration = try Fixtures.configuration(clientID: clientID)
            configuration.scope = scope
            self.configuration = configuration
            let server = AuthorizationServer(
                configuration: configuration,
                explicit: ProviderEndpoints(authorization: URL(string: SignInWithBrowserTests.authorizePath)))
            let sessions = SessionEngine(configuration: configuration, transport: transport, vault: vault, clock: clock,
                                         authorizationServer: server)
            signIn = SignInWithBrowser(sessions: sessions, userAgent: listener, cryptography: FixedCryptography(),
                                       clock: clock)
        }

        /// Signs in, the browser answering with what `answer` makes of the authorization page's
        /// query (the page the user agent was asked to present), each reply delivered in turn.
        func run(answer: @escaping @Sendable ([String: String]) -> [String]) async throws -> Session {
            let listener = listener
            return try await signIn { _ in
                let page = listener.offered.last
                let query = Dictionary(page.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }?
                    .queryItems?.map { ($0.name, $0.value ?? "") } ?? [], uniquingKeysWith: { first, _ in first })
                for reply in answer(query) { listener.deliver("\(ScriptedUserAgent.redirectURI)?\(reply)") }
            }
        }

        func run(answer: @escaping @Sendable ([String: String]) -> String?) async throws -> Session {
            try await run { query in answer(query).map { [$0] } ?? [] }
        }
    }

    @Test("the page asks for a code with PKCE S256 and state; the code and verifier go to the token endpoint; the session is stored and the browser told")
    func signsIn() async throws {
        let rig = try Rig()
        rig.transport.stub(.post, rig.configuration.tokenPath, with: .successful(Fixtures.tokenResponse()))
        let session = try await rig.run { query in "code=the-code&state=\(query["state"] ?? "")" }

        #expect(session.accessToken == Fixtures.accessToken)
        #expect(await rig.vault.storedSession == session)
        let offered = try #require(rig.listener.offered.only)
        let query = try #require(URLComponents(url: offered, resolvingAgainstBaseURL: false)?.queryItems)
        func value(_ name: String) -> String? { query.first { $0.name == name }?.value }
        #expect(value("tenant") == "riders", "the endpoint's own query is kept")
        #expect(value("response_type") == "code")
        #expect(value("client_id") == "rider-cli")
        #expect(value("redirect_uri") == ScriptedUserAgent.redirectURI)
        #expect(value("scope") == "profile email")
        #expect(value("code_challenge_method") == "S256")
        // RFC 7636 Appendix B: this verifier has this challenge.
        #expect(value("code_challenge") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(value("state")?.count == 22, "128 bits, base64url")
        #expect(value("nonce") == nil, "no openid in the scope")

        let form = String(decoding: try #require(rig.transport.requests(.post, rig.configuration.tokenPath).only?.body),
                          as: UTF8.self)
        #expect(form.contains("grant_type=authorization_code"))
        #expect(form.contains("code=the-code"))
        #expect(form.contains("code_verifier=dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
        #expect(form.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A50000%2Fcallback"))
        #expect(form.contains("client_id=rider-cli"))
        #expect(rig.listener.pages.only?.succeeded == true)
        #expect(rig.listener.listenedPaths == ["/callback"])
    }

    @Test("with openid in the scope a 128-bit nonce is sent, and then an answer without an id_token is refused")
    func nonceWithOpenID() async throws {
        let rig = try Rig(scope: "openid email")
        rig.transport.stub(.post, rig.configuration.tokenPath, with: .successful(Fixtures.tokenResponse()))
        rig.transport.stub(.post, rig.configuration.revokePath, with: .status(200))
        let thrown = await #expect(throws: RiderError.self) {
            try await rig.run { query in
                #expect(query["nonce"]?.count == 22)
                #expect(query["nonce"] != query["state"])
                return "code=c&state=\(query["state"] ?? "")"
            }
        }
        #expect(thrown?.code == .untrustedAuthorizationResponse)
        #expect(await rig.vault.storedSession == nil)
        #expect(rig.transport.count(.post, rig.configuration.revokePath) == 2, "the tokens issued for nothing are revoked")
    }

    @Test("the user agent is asked to show the page, and the prompt gets the address it gives, which holds no state, challenge or nonce")
    func oneTimeAddress() async throws {
        let rig = try Rig(scope: "openid email")
        let prompted = Mutex<URL?>(nil)
        let listener = rig.listener
        let denied = await #expect(throws: RiderError.self) {
            _ = try await rig.signIn { prompt in
                prompted.withLock { $0 = prompt.url }
                listener.deliver("\(ScriptedUserAgent.redirectURI)?error=access_denied&state="
                    + (listener.offeredQuery("state") ?? ""))
            }
        }
        #expect(denied?.code == .authorizationDenied, "\(String(describing: denied))")
        #expect(rig.listener.shows == [true])
        #expect(prompted.withLock { $0 } == ScriptedUserAgent.startAddress)
        let page = try #require(rig.listener.offered.only)
        for secret in ["state", "nonce", "code_challenge"] {
            let value = try #require(rig.listener.offeredQuery(secret))
            #expect(!ScriptedUserAgent.startAddress.absoluteString.contains(value), "\(secret)")
        }
        #expect(page.host == "login.example.test")
    }

    @Test("a redirect with a forged, missing or repeated state is refused by the listener's check and the wait goes on; the right answer then signs in",
          arguments: ["code=stolen&state=forged", "code=stolen", "code=stolen&state=a&state=b"])
    func forgedState(reply: String) async throws {
        let rig = try Rig()
        rig.transport.stub(.post, rig.configuration.tokenPath, with: .successful(Fixtures.tokenResponse()))
        let session = try await rig.run { query in [reply, "code=the-code&state=\(query["state"] ?? "")"] }

        #expect(session.accessToken == Fixtures.accessToken)
        #expect(rig.listener.refused.count == 1)
        let form = String(decoding: try #require(rig.transport.requests(.post, rig.configuration.tokenPath).only?.body),
                          as: UTF8.self)
        #expect(form.contains("code=the-code") && !form.contains("stolen"), "only the answer's code is exchanged")
        #expect(rig.listener.pages.only?.succeeded == true)
    }

    @Test("access_denied is the person's refusal; another error names the provider's code, clipped to a safe line")
    func providerErrors() async throws {
        let denied = try Rig()
        await #expect(throws: RiderError.authorizationDenied) {
            try await denied.run { query in "error=access_denied&state=\(query["state"] ?? "")" }
        }
        let failed = try Rig()
        let thrown = await #expect(throws: RiderError.self) {
            try await failed.run { query in
                "error=invalid_scope&error_description=no%1B%5B2J%0Away&state=\(query["state"] ?? "")"
            }
        }
        #expect(thrown?.code == .authorizationFailed)
        #expect(thrown?.detail == "invalid_scope")
        #expect(thrown?.message.contains("\u{1B}") == false)
        #expect(await failed.vault.storedSession == nil)
    }

    @Test("no answer within the timeout: authorization_expired, the listener closed, nothing stored")
    func timeout() async throws {
        let clock = ManualClock()
        let rig = try Rig(clock: clock)
        let thrown = await #expect(throws: RiderError.self) {
            try await rig.signIn(timeout: 120) { _ in }
        }
        #expect(thrown?.code == .authorizationExpired)
        #expect(thrown?.message.contains("120 s") == true)
        #expect(clock.requestedSleeps == [120])
        #expect(rig.listener.pages.count == 1, "finished, so the port is freed")
        #expect(await rig.vault.storedSession == nil)
    }

    @Test("cancelling the task ends the wait: CancellationError, the listener closed, nothing stored")
    func cancelled() async throws {
        let rig = try Rig()
        let started = AsyncStream<Void>.makeStream()
        let task = Task { try await rig.signIn { _ in started.continuation.yield() } }
        for await _ in started.stream { break }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(rig.listener.pages.count == 1)
        #expect(await rig.vault.storedSession == nil)
    }

    @Test("the token endpoint refusing the code (expired, used, verifier mismatch) is authorization_failed; nothing stored")
    func codeRefused() async throws {
        let rig = try Rig()
        rig.transport.stub(.post, rig.configuration.tokenPath, with: .tokenError("invalid_grant"))
        let thrown = await #expect(throws: RiderError.self) {
            try await rig.run { query in "code=c&state=\(query["state"] ?? "")" }
        }
        #expect(thrown?.code == .authorizationFailed)
        #expect(await rig.vault.storedSession == nil)
        #expect(rig.listener.pages.only?.succeeded == false)
    }

    @Test("without a client id the flow is refused before any page opens, and the listener is closed")
    func needsClientID() async throws {
        let rig = try Rig(clientID: nil)
        let thrown = await #expect(throws: RiderError.self) { try await rig.run { _ in nil } }
        #expect(thrown?.code == .invalidConfiguration)
        #expect(thrown?.message.contains("set the client id (clientID)") == true, "\(thrown?.message ?? "")")
        #expect(thrown?.remedy == .setClientID, "the CLI names client_id and RIDER_CLIENT_ID from it")
        #expect(rig.listener.offered.isEmpty)
        #expect(rig.listener.pages.count == 1)
    }

    @Test("opensBrowser false only hands the page to the prompt")
    func noBrowser() async throws {
        let rig = try Rig()
        rig.transport.stub(.post, rig.configuration.tokenPath, with: .successful(Fixtures.tokenResponse()))
        let listener = rig.listener
        _ = try await rig.signIn(opensBrowser: false) { prompt in
            #expect(!prompt.openedInBrowser)
            #expect(prompt.url == ScriptedUserAgent.startAddress)
            listener.deliver("\(ScriptedUserAgent.redirectURI)?code=c&state=\(listener.offeredQuery("state") ?? "")")
        }
        #expect(rig.listener.shows == [false])
    }
}

/// The checks of the provider's answer on their own (RFC 6749 §4.1.2, RFC 9207).
@Suite("Browser sign-in: the answer's checks")
struct BrowserAuthorizationTests {
    static let issuer = "https://login.example.test"

    func authorization(issuer: String? = issuer, required: Bool = true) throws -> BrowserAuthorization {
        try BrowserAuthorization(endpoint: URL(string: "https://login.example.test/authorize")!, clientID: "c",
                                 redirectURI: URL(string: ScriptedUserAgent.redirectURI)!, scope: nil, issuer: issuer,
                                 issuerIsRequired: required, cryptography: FixedCryptography())
    }

    func answer(_ query: String) -> URL { URL(string: "\(ScriptedUserAgent.redirectURI)?\(query)")! }

    @Test("the right state and iss give the code")
    func accepted() throws {
        let request = try authorization()
        let iss = Self.issuer.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        #expect(try request.code(from: answer("code=abc&state=\(request.state)&iss=\(iss)")) == "abc")
    }

    @Test("a wrong iss is refused, even on an error answer; a missing one where the provider promised it too")
    func issuer() throws {
        let request = try authorization()
        for query in ["code=abc&state=\(request.state)&iss=https%3A%2F%2Fevil.example",
                      "error=access_denied&state=\(request.state)&iss=https%3A%2F%2Fevil.example",
                      "code=abc&state=\(request.state)"] {
            let thrown = #expect(throws: RiderError.self) { try request.code(from: answer(query)) }
            #expect(thrown?.code == .untrustedAuthorizationResponse, "\(query)")
        }
    }

    @Test("the listener's check: only an address naming this request's state once is its answer, error answers included")
    func isAnswer() throws {
        let request = try authorization()
        #expect(request.isAnswer(answer("code=abc&state=\(request.state)")))
        #expect(request.isAnswer(answer("error=access_denied&state=\(request.state)")))
        for query in ["code=abc", "code=abc&state=forged", "code=abc&state=\(request.state)x", "state=",
                      "code=abc&state=\(request.state)&state=\(request.state)", "code=abc&State=\(request.state)"] {
            #expect(!request.isAnswer(answer(query)), "\(query)")
        }
    }

    @Test("a provider that does not promise iss may leave it out, but not send a wrong one")
    func optionalIssuer() throws {
        let request = try authorization(required: false)
        #expect(try request.code(from: answer("code=abc&state=\(request.state)")) == "abc")
        let refusal = #expect(throws: RiderError.self) {
            try request.code(from: answer("code=abc&state=\(request.state)&iss=https%3A%2F%2Fevil.example"))
        }
        #expect(refusal?.code == .untrustedAuthorizationResponse, "\(String(describing: refusal))")
    }

    @Test("an answer with neither code nor error is malformed")
    func empty() throws {
        let request = try authorization()
        let thrown = #expect(throws: RiderError.self) {
            try request.code(from: answer("state=\(request.state)&iss=https%3A%2F%2Flogin.example.test"))
        }
        #expect(thrown?.code == .malformedResponse)
    }

    @Test("state, verifier and nonce never show in its description or mirror")
    func redacted() throws {
        let request = try authorization()
        let printed = "\(request) \(String(reflecting: request)) \(Mirror(reflecting: request).children.map { "\($0.value)" })"
        #expect(!printed.contains(request.state))
        #expect(!printed.contains(request.codeVerifier))
    }
}

// MARK: - Test doubles

/// The RFC 7636 Appendix B verifier's bytes for the first call, counting bytes after, so state
/// and nonce differ; SHA-256 from a table of the one input the tests hash.
final class FixedCryptography: SignInCryptography {
    static let appendixBVerifierBytes: [UInt8] = [
        116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186,
        22, 212, 37, 77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121,
    ]
    private let calls = Mutex(0)

    func sha256(_ data: Data) -> Data {
        // Only the Appendix B verifier is ever hashed here; its digest is the RFC's.
        Data(base64Encoded: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw+cM=") ?? Data()
    }

    func randomBytes(count: Int) -> Data {
        let call = calls.withLock { value -> Int in
            value += 1
            return value
        }
        if call == 1, count == 32 { return Data(Self.appendixBVerifierBytes) }
        return Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ call) })
    }
}

/// A clock whose waits last until cancelled: the redirect always comes first.
struct WaitingClock: Clock {
    var now = Fixtures.epoch
    func sleep(for seconds: TimeInterval) async throws {
        try await Task.sleep(nanoseconds: 3_600_000_000_000)
    }
}

/// An in-memory user agent: the test delivers the browser's return, and only what the presented
/// check accepts ends the wait, as with the real listener.
final class ScriptedUserAgent: ExternalUserAgent, ExternalUserAgentSession, Sendable {
    static let redirectURI = "http://127.0.0.1:50000/callback"
    static let startAddress = URL(string: "http://127.0.0.1:50000/start/one-time")!
    var redirectURI: URL { URL(string: ScriptedUserAgent.redirectURI)! }
    private let stream = AsyncStream<URL>.makeStream()
    private let finished = Mutex<[RedirectPage]>([])
    private let paths = Mutex<[String]>([])
    private let offers = Mutex<[URL]>([])
    private let showing = Mutex<[Bool]>([])
    private let check = Mutex<(@Sendable (URL) -> Bool)?>(nil)
    private let refusals = Mutex<[URL]>([])

    var pages: [RedirectPage] { finished.withLock { $0 } }
    var listenedPaths: [String] { paths.withLock { $0 } }
    /// The provider's pages the sign-in asked to present.
    var offered: [URL] { offers.withLock { $0 } }
    /// Whether each presentation was to be shown (`opensBrowser`).
    var shows: [Bool] { showing.withLock { $0 } }
    /// The redirects the check refused (each answered 400 by a real listener).
    var refused: [URL] { refusals.withLock { $0 } }

    /// A parameter of the offered page's query.
    func offeredQuery(_ name: String) -> String? {
        offered.last.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }?.queryItems?
            .first { $0.name == name }?.value
    }

    func present(_ page: URL, shows: Bool, acceptingAnswers isAnswer: @escaping @Sendable (URL) -> Bool)
        async throws -> UserAgentPresentation {
        offers.withLock { $0.append(page) }
        showing.withLock { $0.append(shows) }
        check.withLock { $0 = isAnswer }
        return UserAgentPresentation(address: Self.startAddress, shown: shows)
    }

    /// The device sign-in's page is no part of these tests.
    func show(_ page: URL) async throws -> Bool { false }

    func deliver(_ text: String) {
        if let url = URL(string: text) { stream.continuation.yield(url) }
    }

    func beginAuthorization(redirectPath: String) async throws -> any ExternalUserAgentSession {
        paths.withLock { $0.append(redirectPath) }
        return self
    }

    func redirect() async throws -> URL {
        for await url in stream.stream {
            if check.withLock({ $0 })?(url) == true { return url }
            refusals.withLock { $0.append(url) }
        }
        throw CancellationError()
    }

    func finish(with page: RedirectPage) async {
        finished.withLock { $0.append(page) }
    }
}
