import Foundation
import RiderApplication
import RiderDomain
import RiderKitTesting
import Synchronization
import Testing
import TestSupport

/// RFC 8628 from the client's side, against a scripted provider and a clock that never waits.
@Suite("Device sign-in")
struct SignInWithDeviceCodeTests {
    static let devicePath = "/oauth2/device_authorization"

    /// The use case over a stub provider whose device authorization endpoint is set explicitly.
    struct Rig {
        let transport = StubTransport()
        let vault = SpyTokenVault()
        let clock = ManualClock()
        let configuration: APIConfiguration
        let sessions: SessionEngine
        let signIn: SignInWithDeviceCode

        init() throws {
            configuration = try Fixtures.configuration()
            let server = AuthorizationServer(
                configuration: configuration,
                explicit: ProviderEndpoints(deviceAuthorization: try configuration.url(for: SignInWithDeviceCodeTests.devicePath)))
            sessions = SessionEngine(configuration: configuration, transport: transport, vault: vault, clock: clock,
                                     authorizationServer: server)
            signIn = SignInWithDeviceCode(sessions: sessions, clock: clock)
        }

        func stubDeviceAuthorization(_ body: FixtureJSON = Rig.authorization()) {
            transport.stub(.post, SignInWithDeviceCodeTests.devicePath, with: .successful(body))
        }

        static func authorization(verificationURI: String = "https://api.example.test/device",
                                  userCode: String = "BCDF-GHJK", interval: FixtureJSON = 2,
                                  expiresIn: FixtureJSON = 600) -> FixtureJSON {
            ["device_code": "device-secret-1", "user_code": .string(userCode), "verification_uri": .string(verificationURI),
             "verification_uri_complete": .string(verificationURI + "?user_code=" + userCode),
             "expires_in": expiresIn, "interval": interval]
        }
    }

    @Test("a session that expired for good is renewed with a device code: the person is shown the code once, the request goes through")
    func reauthenticationWithDeviceCode() async throws {
        let rig = try Rig()
        try await rig.sessions.establish(Fixtures.session())
        rig.stubDeviceAuthorization()
        rig.transport.stub(.post, rig.configuration.tokenPath) { request in
            request.formFields["grant_type"] == "refresh_token"
                ? .tokenError("invalid_grant")
                : .successful(Fixtures.tokenResponse(accessToken: "access-new", refreshToken: "refresh-new"))
        }
        rig.transport.stub(.get, "/riders/me") { request in
            request.bearerToken == "access-new" ? .successful(Fixtures.rider()) : .problem(status: 401)
        }
        let shown = Mutex<[String]>([])
        await rig.sessions.reauthenticate(with: Reauthentication(signIn: { _ in
            .deviceCode { authorization in shown.withLock { $0.append(authorization.userCode) } }
        }))
        let api = APIClient(configuration: rig.configuration, pipeline: RequestPipeline(transport: rig.transport, middlewares: [
            ReauthenticationMiddleware(sessions: rig.sessions), AuthorizationMiddleware(sessions: rig.sessions),
        ]))

        let rider = try await api.send(API.myRider)

        #expect(rider.displayName == Fixtures.displayName)
        #expect(shown.withLock { $0 } == ["BCDF-GHJK"])
        #expect(await rig.vault.storedSession?.accessToken == "access-new")
        let grants = rig.transport.requests(.post, rig.configuration.tokenPath).compactMap { $0.formFields["grant_type"] }
        #expect(grants == ["refresh_token", "urn:ietf:params:oauth:grant-type:device_code"])
    }

    @Test("pending, pending, then approved: the session is stored, polled at the interval, the form RFC 8628's")
    func approvedAfterWaiting() async throws {
        let rig = try Rig()
        rig.stubDeviceAuthorization()
        rig.transport.stub(.post, rig.configuration.tokenPath, inOrder: [
            .tokenError("authorization_pending"), .tokenError("authorization_pending"),
            .successful(Fixtures.tokenResponse()),
        ])

        let pending = try await rig.signIn.start()
        #expect(pending.userCode == "BCDF-GHJK")
        #expect(pending.verificationURI.absoluteString == "https://api.example.test/device")
        let session = try await rig.signIn.complete(pending)

        #expect(session.accessToken == Fixtures.accessToken)
        #expect(await rig.vault.storedSession == session)
        #expect(rig.clock.requestedSleeps == [2, 2, 2], "the interval before every poll, the first too")
        let polls = rig.transport.requests(.post, rig.configuration.tokenPath)
        #expect(polls.count == 3)
        let form = String(decoding: polls[0].body ?? Data(), as: UTF8.self)
        #expect(form.contains("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code"))
        #expect(form.contains("device_code=device-secret-1"))
    }

    @Test("slow_down adds 5 seconds to the interval from then on")
    func slowDown() async throws {
        let rig = try Rig()
        rig.stubDeviceAuthorization()
        rig.transport.stub(.post, rig.configuration.tokenPath, inOrder: [
            .tokenError("slow_down"), .tokenError("authorization_pending"), .successful(Fixtures.tokenResponse()),
        ])
        _ = try await rig.signIn.complete(try await rig.signIn.start())
        #expect(rig.clock.requestedSleeps == [2, 7, 7])
    }

    @Test("access_denied and expired_token end the wait with their own errors, and nothing is stored",
          arguments: [("access_denied", RiderError.Code.authorizationDenied),
                       ("expired_token", RiderError.Code.authorizationExpired)])
    func refused(error: String, code: RiderError.Code) async throws {
        let rig = try Rig()
        rig.stubDeviceAuthorization()
        rig.transport.stub(.post, rig.configuration.tokenPath, inOrder: [.tokenError("authorization_pending"), .tokenError(error)])
        let pending = try await rig.signIn.start()
        let thrown = await #expect(throws: RiderError.self) { try await rig.signIn.complete(pending) }
        #expect(thrown?.code == code)
        #expect(await rig.vault.storedSession == nil)
    }

    @Test("a provider that says pending forever is left when the code expires")
    func localExpiry() async throws {
        let rig = try Rig()
        rig.stubDeviceAuthorization(Rig.authorization(interval: 5, expiresIn: 12))
        rig.transport.stub(.post, rig.configuration.tokenPath, with: .tokenError("authorization_pending"))
        let pending = try await rig.signIn.start()
        await #expect(throws: RiderError.authorizationExpired) { try await rig.signIn.complete(pending) }
        #expect(rig.transport.count(.post, rig.configuration.tokenPath) == 3, "at 5, 10 and 15 s; the code lived 12")
    }

    @Test("a page that is not https, or a user code that is not one short line, is refused before anyone sees it",
          arguments: [Rig.authorization(verificationURI: "javascript:alert(1)"),
                      Rig.authorization(verificationURI: "http://evil.example/device"),
                      Rig.authorization(verificationURI: "https://user:pass@api.example.test/device"),
                      Rig.authorization(userCode: "BCDF\u{1B}[2J"),
                      Rig.authorization(userCode: String(repeating: "B", count: 65))])
    func hostileAuthorization(body: FixtureJSON) async throws {
        let rig = try Rig()
        rig.stubDeviceAuthorization(body)
        let thrown = await #expect(throws: RiderError.self) { try await rig.signIn.start() }
        #expect(thrown?.code == .malformedResponse)
    }

    @Test("an interval or lifetime out of reason is clamped: at least 1 s between polls, at most an hour to wait")
    func clamped() async throws {
        let rig = try Rig()
        rig.stubDeviceAuthorization(Rig.authorization(interval: 0, expiresIn: 1e12))
        let pending = try await rig.signIn.start()
        #expect(pending.interval == 1)
        #expect(pending.expiresAt == rig.clock.now.addingTimeInterval(3600))
    }

    @Test("the device code is never printed")
    func deviceCodeRedacted() async throws {
        let rig = try Rig()
        rig.stubDeviceAuthorization()
        let pending = try await rig.signIn.start()
        for text in ["\(pending)", String(reflecting: pending), "\(Mirror(reflecting: pending).children.map(\.value))"] {
            #expect(!text.contains("device-secret-1"), "\(text)")
        }
    }

    @Test("without a device authorization endpoint the error says how to get one")
    func noEndpoint() async throws {
        let configuration = try Fixtures.configuration()
        let sessions = SessionEngine(configuration: configuration, transport: StubTransport(), vault: SpyTokenVault(),
                                     clock: ManualClock())
        let thrown = await #expect(throws: RiderError.self) {
            try await SignInWithDeviceCode(sessions: sessions, clock: ManualClock()).start()
        }
        #expect(thrown?.code == .invalidConfiguration)
        #expect(thrown?.message.contains("issuer") == true)
    }
}
