import Foundation
import RiderApplication
import RiderDomain
import RiderKit
import Testing
import TestSupport

/// Refreshing before the token expires, driven by a ManualClock: inside the leeway the token
/// still in hand is used at once and one refresh runs beside the requests; only an expired
/// token waits for one.
@Suite("Session engine: proactive refresh")
struct ProactiveRefreshTests {
    /// Moves the clock on by `seconds`, sends one request, and waits for any refresh it started.
    private func request(_ harness: UseCaseHarness, after seconds: TimeInterval) async throws {
        harness.clock.advance(by: seconds)
        _ = try await harness.getRider()
        await harness.sessions.finishRefreshing()
    }

    @Test("a token inside the leeway is sent at once, and one refresh renews the session beside it")
    func proactiveRefresh() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.get, "/riders/me", with: .successful(Fixtures.rider()))
        harness.stubTokenEndpoint(times: 1, with: .successful(Fixtures.renewedTokens))
        harness.clock.advance(by: 3600 - 59)

        _ = try await harness.getRider()
        await harness.sessions.finishRefreshing()
        _ = try await harness.getRider()

        let riders = harness.transport.requests(.get, "/riders/me")
        #expect(riders.map(\.bearerToken) == [Fixtures.accessToken, "access-2"])
        #expect(harness.transport.count(.post, "/auth/token") == 1)
        #expect(await harness.vault.storedSession?.accessToken == "access-2")
    }

    @Test("requests inside the leeway do not wait while the refresh is held at the token endpoint")
    func requestsDoNotWaitForTheRefresh() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.get, "/riders/me", with: .successful(Fixtures.rider()))
        let (entered, enter) = AsyncStream.makeStream(of: Void.self)
        let (release, proceed) = AsyncStream.makeStream(of: Void.self)
        harness.transport.stub(.post, "/auth/token", times: 1) { _ in
            enter.yield()
            for await _ in release { break }
            return .successful(Fixtures.renewedTokens)
        }
        harness.clock.advance(by: 3600 - 30)

        _ = try await harness.getRider()
        for await _ in entered { break }
        // The refresh is at the token endpoint and stays there: ten more requests go through.
        for _ in 0..<10 { _ = try await harness.getRider() }
        proceed.yield()
        await harness.sessions.finishRefreshing()

        let tokens = harness.transport.requests(.get, "/riders/me").map(\.bearerToken)
        #expect(tokens == Array(repeating: Fixtures.accessToken, count: 11))
        #expect(harness.transport.count(.post, "/auth/token") == 1)
        #expect(try await harness.sessions.currentSession()?.accessToken == "access-2")
    }

    @Test("a token outside the leeway is used as it is")
    func noRefreshOutsideLeeway() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.acceptRiderRequests(only: Fixtures.accessToken)
        harness.clock.advance(by: 3600 - 61)

        _ = try await harness.getRider()
        await harness.sessions.finishRefreshing()

        #expect(harness.transport.count(.post, "/auth/token") == 0)
    }

    @Test("an expired token waits for the refresh, and the request carries the new one")
    func expiredTokenWaits() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.acceptRiderRequests(only: "access-2")
        harness.stubTokenEndpoint(times: 1, with: .successful(Fixtures.renewedTokens))
        harness.clock.advance(by: 3600)

        _ = try await harness.getRider()

        #expect(harness.transport.requests.map(\.url.path) == ["/auth/token", "/riders/me"])
    }

    @Test("a short-lived token is not refreshed on every request: the leeway is capped at half the lifetime")
    func shortLivedToken() async throws {
        let harness = try UseCaseHarness.signedIn(Fixtures.session(lifetime: 30))
        harness.transport.stub(.get, "/riders/me", with: .successful(Fixtures.rider()))
        harness.stubTokenEndpoint(times: 1, with: .successful(
            Fixtures.tokenResponse(accessToken: "access-2", expiresIn: 30, refreshToken: "refresh-2")))

        try await request(harness, after: 14)
        #expect(harness.transport.count(.post, "/auth/token") == 0)

        try await request(harness, after: 2)
        #expect(harness.transport.count(.post, "/auth/token") == 1)

        try await request(harness, after: 1)
        #expect(harness.transport.count(.post, "/auth/token") == 1)
        #expect(harness.transport.requests(.get, "/riders/me").last?.bearerToken == "access-2")
    }

    @Test("a refresh ahead that fails for want of the network keeps the session and waits a tenth of the leeway")
    func proactiveRefreshFailureFallsBack() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.acceptRiderRequests(only: Fixtures.accessToken)
        harness.stubTokenEndpoint(times: 2, with: .problem(status: 503))
        harness.clock.advance(by: 3600 - 30)

        _ = try await harness.getRider()
        await harness.sessions.finishRefreshing()
        #expect(await harness.vault.storedSession == Fixtures.session())

        // Within the 6 s hold, requests go out with the token in hand and start no refresh.
        try await request(harness, after: 5)
        #expect(harness.transport.count(.post, "/auth/token") == 1)

        try await request(harness, after: 1)
        #expect(harness.transport.count(.post, "/auth/token") == 2)
        #expect(harness.transport.count(.get, "/riders/me") == 3)
    }

    @Test("a refresh ahead that the server rejects ends the session for the next request")
    func rejectedRefreshAheadEndsTheSession() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.acceptRiderRequests(only: Fixtures.accessToken)
        harness.stubTokenEndpoint(times: 1, with: .tokenError("invalid_grant"))
        harness.clock.advance(by: 3600 - 30)

        _ = try await harness.getRider()
        await harness.sessions.finishRefreshing()

        await #expect(throws: RiderError.sessionExpired) { try await harness.getRider() }
        #expect(await harness.vault.storedSession == nil)
    }

    @Test("a failed refresh of a token that has expired is the transient error")
    func expiredAndRefreshFails() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.stubTokenEndpoint(with: .unreachable)
        harness.clock.advance(by: 3601)

        await #expect(throws: RiderError.serverUnreachable(reason: "connection refused")) { try await harness.getRider() }
        #expect(harness.transport.count(.get, "/riders/me") == 0)
        // The GET's retry policy tried the whole request, refresh included, three times.
        #expect(harness.transport.count(.post, "/auth/token") == RetryPolicy.standard.maxAttempts)
        #expect(await harness.vault.storedSession == Fixtures.session())
    }

    @Test("a token handed out of the process is renewed first when it is due (rider session token)")
    func freshSessionWaits() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.stubTokenEndpoint(times: 1, with: .successful(Fixtures.renewedTokens))
        harness.clock.advance(by: 3600 - 30)

        let session = try await harness.sessions.freshSession()

        #expect(session.accessToken == "access-2")
        #expect(harness.transport.count(.post, "/auth/token") == 1)
    }

    @Test("jitter moves the refresh to a point in the leeway's first half, never outside it",
          arguments: [0.0, 0.25, 0.5])
    func jitter(_ jitter: Double) {
        let session = Fixtures.session()  // issued at the epoch, expires an hour later
        let expiry = try! #require(session.expiresAt)
        let moment = 60 * (1 - jitter)
        #expect(!SessionMachine.needsRefresh(session, at: expiry.addingTimeInterval(-moment - 0.5), leeway: 60,
                                             jitter: jitter))
        #expect(SessionMachine.needsRefresh(session, at: expiry.addingTimeInterval(-moment), leeway: 60, jitter: jitter))
        // Out-of-range draws are clamped to the leeway's first half.
        #expect(SessionMachine.needsRefresh(session, at: expiry.addingTimeInterval(-30), leeway: 60, jitter: 0.9))
        #expect(!SessionMachine.needsRefresh(session, at: expiry.addingTimeInterval(-61), leeway: 60, jitter: -1))
    }

    @Test("RiderKit.close() waits for the refresh ahead, so a short-lived program keeps the renewed session")
    func closeWaitsForTheRefreshAhead() async throws {
        let api = try Fixtures.configuration()
        let transport = StubTransport(delay: .milliseconds(50))
        transport.stub(.get, "/auth/me", with: .successful(Fixtures.user()))
        transport.stub(.post, "/auth/token", times: 1, with: .successful(Fixtures.renewedTokens))
        let vault = InMemoryTokenVault(session: Fixtures.session())
        let clock = ManualClock()
        let rider = try RiderKit.testing(transport: transport, vault: vault, clock: clock, api: api)
        clock.advance(by: 3600 - 30)

        _ = try await rider.currentUser(policy: .networkOnly)
        await rider.close()

        #expect(try await vault.loadSession()?.accessToken == "access-2")
    }
}
