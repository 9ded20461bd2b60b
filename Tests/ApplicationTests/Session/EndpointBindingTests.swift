import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

/// Every endpoint a stored token is sent to is the one the session was issued with: the API
/// origin for its access token, and the revocation endpoint it recorded at sign-in (or, for a
/// session that recorded none, its API's or token endpoint's origin) whatever the configuration
/// says later. A mismatch sends nothing.
@Suite("Session: its tokens go only to the endpoints it was issued with")
struct EndpointBindingTests {
    static let api = Fixtures.baseURL
    static let identity = "https://id.example.test"
    static let stranger = "https://stranger.example.test"

    /// A harness whose configuration revokes at `revokePath`, holding `session`.
    func harness(revokePath: String, session: Session) throws -> UseCaseHarness {
        var configuration = try Fixtures.configuration()
        configuration.revokePath = revokePath
        return try UseCaseHarness(configuration: configuration, session: session)
    }

    func session(revocationOrigin: String?) -> Session {
        var session = Fixtures.session()
        session.revocationOrigin = revocationOrigin
        return session
    }

    @Test("an authorized request to another origin than the API's goes out without the token and is not renewed")
    func accessTokenStaysOnTheAPIOrigin() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.get, "/elsewhere", with: .status(401))
        let pipeline = RequestPipeline(transport: harness.transport,
                                       middlewares: [AuthorizationMiddleware(sessions: harness.sessions)])

        for target in ["\(Self.stranger)/elsewhere", "http://api.example.test/elsewhere",
                       "https://api.example.test:8443/elsewhere"] {
            let response = try await pipeline.send(HTTPRequest(method: .get, url: try #require(URL(string: target))),
                                                   options: RequestOptions(isAuthorized: true))
            #expect(response.status == 401)
        }

        #expect(harness.transport.requests.count == 3)
        #expect(harness.transport.requests.allSatisfy { $0.headers["Authorization"] == nil })
        #expect(await harness.sessions.refreshCount == 0)
    }

    // The session's step compares a request's URL with the API origin by its text first: a URL
    // that only starts like the API's must still be judged by its own origin.
    @Test("a URL that starts like the API origin's text but names another origin goes out without the token",
          arguments: ["\(api)x.example/riders/me", "\(api)@stranger.example.test/riders/me", "\(api):8443/riders/me",
                      "\(api).stranger.example.test/riders/me"])
    func lookAlikeOriginGetsNoToken(_ target: String) async throws {
        #expect(try await authorizedRequestAsSent(to: target)?.headers["Authorization"] == nil)
    }

    @Test("the API origin in capitals, or followed by a query or fragment, is the same origin",
          arguments: ["https://API.EXAMPLE.TEST/riders/me", "\(api)/riders/me?page=1", "\(api)/riders/me#top"])
    func sameOriginSpelledOtherwise(_ target: String) async throws {
        #expect(try await authorizedRequestAsSent(to: target)?.bearerToken == Fixtures.accessToken)
    }

    @Test("the API origin written with its default port is the same origin")
    func defaultPortIsTheSameOrigin() async throws {
        #expect(try await authorizedRequestAsSent(to: "\(Self.api):443/riders/me")?.bearerToken == Fixtures.accessToken)
    }

    /// Sends an authorized GET to `target` through the session's step, signed in, and returns the
    /// request as the transport received it.
    private func authorizedRequestAsSent(to target: String) async throws -> HTTPRequest? {
        let harness = try UseCaseHarness.signedIn()
        let url = try #require(URL(string: target))
        harness.transport.stub(.get, url.path, with: .status(204))
        let pipeline = RequestPipeline(transport: harness.transport,
                                       middlewares: [AuthorizationMiddleware(sessions: harness.sessions)])
        _ = try await pipeline.send(HTTPRequest(method: .get, url: url), options: RequestOptions(isAuthorized: true))
        return harness.transport.requests.first
    }

    @Test("logout refuses a revocation endpoint moved to another origin after sign-in: nothing sent, session kept",
          arguments: [Self.api, Self.identity])
    func revocationMovedElsewhereIsRefused(issuedWith origin: String) async throws {
        let harness = try harness(revokePath: "\(Self.stranger)/revoke", session: session(revocationOrigin: origin))

        let refusal = await #expect(throws: RiderError.self) { try await harness.logout() }

        #expect(refusal?.code == .storage)
        #expect(refusal?.message.contains(Self.stranger) == true)
        #expect(harness.transport.requests.isEmpty, "nothing was sent anywhere")
        #expect(await harness.vault.storedSession?.accessToken == Fixtures.accessToken, "the session is kept")
    }

    @Test("a session that recorded no revocation endpoint revokes only on its API's or token endpoint's origin")
    func unrecordedSessionRevokesOnlyAtHome() async throws {
        let away = try harness(revokePath: "\(Self.identity)/revoke", session: session(revocationOrigin: nil))
        let refusal = await #expect(throws: RiderError.self) { try await away.logout() }
        #expect(refusal?.code == .storage)
        #expect(away.transport.requests.isEmpty)

        let home = try harness(revokePath: "/oauth/revoke", session: session(revocationOrigin: nil))
        home.transport.stub(.post, "/oauth/revoke", times: 2, with: .successful())
        #expect(try await home.logout() == Logout.Outcome(wasSignedIn: true, revokedOnServer: true))
    }

    @Test("a session issued with a revocation endpoint on the identity provider's origin revokes there")
    func recordedOriginIsHonoured() async throws {
        let harness = try harness(revokePath: "\(Self.identity)/oauth2/revoke",
                                  session: session(revocationOrigin: Self.identity))
        harness.transport.stub(.post, "/oauth2/revoke", times: 2, with: .successful())

        #expect(try await harness.logout() == Logout.Outcome(wasSignedIn: true, revokedOnServer: true))
        #expect(harness.transport.requests.allSatisfy { $0.url.host == "id.example.test" })
    }

    @Test("sign-in records where its tokens may be revoked, and a refresh keeps it")
    func signInRecordsRefreshKeeps() async throws {
        let harness = try harness(revokePath: "\(Self.identity)/revoke", session: session(revocationOrigin: nil))
        harness.transport.stub(.post, "/auth/token", times: 1, with: .successful(Fixtures.tokenResponse()))
        _ = try await harness.login(Credentials(email: "demo@example.com", password: "pw"))
        #expect(await harness.vault.storedSession?.revocationOrigin == Self.identity)

        harness.stubTokenEndpoint(times: 1)
        _ = try await harness.sessions.refresh()
        let refreshed = await harness.vault.storedSession
        #expect(refreshed?.accessToken == "access-2")
        #expect(refreshed?.revocationOrigin == Self.identity)
    }

    @Test("a refused refresh answer's tokens are revoked only where the session was issued, never at a moved endpoint")
    func refusedRefreshRevokesOnlyAtHome() async throws {
        let moved = try harness(revokePath: "\(Self.stranger)/revoke", session: session(revocationOrigin: Self.api))
        moved.stubTokenEndpoint(times: 1, with: .successful(Fixtures.tokenResponse(
            accessToken: "access-2", refreshToken: "refresh-2", userID: "u_someone_else")))
        _ = try? await moved.sessions.refresh()
        #expect(moved.transport.requests.allSatisfy { $0.url.host != "stranger.example.test" },
                "nothing reached the endpoint configured since")

        let home = try harness(revokePath: "/auth/revoke", session: session(revocationOrigin: Self.api))
        home.stubTokenEndpoint(times: 1, with: .successful(Fixtures.tokenResponse(
            accessToken: "access-2", refreshToken: "refresh-2", userID: "u_someone_else")))
        home.transport.stub(.post, "/auth/revoke", times: 2, with: .successful())
        _ = try? await home.sessions.refresh()
        #expect(home.transport.requests(.post, "/auth/revoke").map { $0.formFields["token"] } == ["refresh-2", "access-2"])
    }
}
