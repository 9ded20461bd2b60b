import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

/// The session engine as requests use it: a 401 leads to one shared refresh and one retry.
@Suite("Session engine: refresh after 401")
struct SessionEngineTests {
    @Test("concurrent 401s share one refresh")
    func concurrent401sShareOneRefresh() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.acceptRiderRequests(only: "access-2")
        // `times: 1`: a second refresh would be an unexpected request and fail the test loudly.
        harness.transport.stub(.post, "/auth/token", times: 1) { _ in
            try await Task.sleep(for: .milliseconds(20))
            return .successful(Fixtures.renewedTokens)
        }
        harness.transport.setDelay(.milliseconds(5))

        let riders = try await withThrowingTaskGroup(of: Rider.self) { group in
            for _ in 0..<100 { group.addTask { try await harness.getRider() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(riders.count == 100)
        #expect(harness.transport.count(.post, "/auth/token") == 1)
        #expect(await harness.sessions.refreshCount == 1)
        let retried = harness.transport.requests(.get, "/riders/me").filter { $0.bearerToken == "access-2" }
        #expect(retried.count == 100)
        let refresh = try #require(harness.transport.requests(.post, "/auth/token").first)
        #expect(refresh.formFields["grant_type"] == "refresh_token")
        #expect(refresh.formFields["refresh_token"] == Fixtures.refreshToken)
        #expect(refresh.headers["Authorization"] == nil, "the token endpoint is never sent a bearer token")
        #expect(await harness.vault.storedSession?.accessToken == "access-2")
    }

    @Test("a 401 for an older token retries with the current one without refreshing")
    func staleTokenRetriesWithCurrent() async throws {
        let harness = try UseCaseHarness.signedIn(Fixtures.session(accessToken: "access-2", refreshToken: "refresh-2"))

        let session = try await harness.sessions.renew(afterRejecting: "access-1")

        #expect(session.accessToken == "access-2")
        #expect(harness.transport.requests.isEmpty)
        #expect(await harness.sessions.refreshCount == 0)
    }

    @Test("a request whose 401 arrives after another request refreshed is retried without a second refresh")
    func late401AfterRefresh() async throws {
        let harness = try UseCaseHarness.signedIn()
        let slowRoute = StubRoute(.get, "/users/u_000009")
        // The slow request is sent with access-1, then held until the test says the refresh is
        // done: a signal, not a sleep that a loaded machine could outlast.
        let (refreshed, refreshDone) = AsyncStream.makeStream(of: Void.self)
        harness.transport.stub(slowRoute) { request in
            guard request.bearerToken == "access-2" else {
                for await _ in refreshed { break }
                return .problem(status: 401)
            }
            return .successful(Fixtures.user(id: "u_000009"))
        }
        harness.acceptRiderRequests(only: "access-2")
        harness.stubTokenEndpoint(times: 1, with: .successful(Fixtures.renewedTokens))

        async let slow = harness.getUser("u_000009")
        try await harness.transport.waitForRequests(.get, "/users/u_000009")
        _ = try await harness.getRider()
        refreshDone.finish()
        let user = try await slow

        #expect(user.id == "u_000009")
        #expect(harness.transport.count(.post, "/auth/token") == 1)
    }

    @Test("refresh invalid_grant is .sessionExpired for every waiter and empties the vault")
    func invalidGrantExpiresSession() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.acceptRiderRequests(only: "access-2")
        harness.transport.stub(.post, "/auth/token", times: 1) { _ in
            try await Task.sleep(for: .milliseconds(20))
            return .tokenError("invalid_grant", description: "refresh token revoked")
        }
        harness.transport.setDelay(.milliseconds(5))

        let outcomes = await withTaskGroup(of: Result<Rider, any Error>.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    do { return .success(try await harness.getRider()) } catch { return .failure(error) }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }

        for outcome in outcomes {
            #expect(throws: RiderError.sessionExpired) { try outcome.get() }
        }
        #expect(harness.transport.count(.post, "/auth/token") == 1)
        #expect(await harness.vault.storedSession == nil)
        #expect(try await harness.sessions.currentSession() == nil)
    }

    @Test("a request whose 401 arrives after the session was found expired also learns it expired")
    func late401AfterExpiry() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.stubTokenEndpoint(times: 1, with: .tokenError("invalid_grant"))

        await #expect(throws: RiderError.sessionExpired) { try await harness.sessions.refresh() }
        // A request sent with the old token before the refresh failed now gets its 401.
        await #expect(throws: RiderError.sessionExpired) {
            try await harness.sessions.renew(afterRejecting: Fixtures.accessToken)
        }
    }

    @Test("after the session expired, later requests are .sessionExpired too, until a logout makes them .notSignedIn")
    func expiryIsRememberedUntilLogout() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.stubTokenEndpoint(times: 1, with: .tokenError("invalid_grant"))
        await #expect(throws: RiderError.sessionExpired) { try await harness.sessions.refresh() }

        // "No session" here means "it expired", not "never signed in".
        await #expect(throws: RiderError.sessionExpired) { try await harness.getRider() }
        await #expect(throws: RiderError.sessionExpired) { try await harness.sessions.refresh() }
        try await harness.logout()
        await #expect(throws: RiderError.notSignedIn) { try await harness.getRider() }

        #expect(harness.transport.count(.post, "/auth/token") == 1)
        #expect(harness.transport.count(.get, "/riders/me") == 0)
    }

    @Test("a 401 for a session without refresh token ends it, saying the access token was refused; nothing is sent to the token endpoint")
    func noRefreshToken() async throws {
        let harness = try UseCaseHarness.signedIn(Fixtures.session(refreshToken: nil))
        harness.acceptRiderRequests(only: "never")

        await #expect(throws: RiderError.accessTokenRefused) { try await harness.getRider() }
        #expect(harness.transport.count(.post, "/auth/token") == 0)
        #expect(await harness.vault.storedSession == nil)
        let later = await #expect(throws: RiderError.self) { try await harness.getRider() }
        #expect(later?.code == .sessionExpired)
    }

    @Test("refresh() of a session without refresh token fails and keeps it: the token stays in use")
    func noRefreshTokenToRenewWith() async throws {
        let given = Fixtures.session(refreshToken: nil)
        let harness = try UseCaseHarness.signedIn(given)

        await #expect(throws: RiderError.cannotRenew) { try await harness.sessions.refresh() }
        #expect(harness.transport.count(.post, "/auth/token") == 0)
        #expect(await harness.vault.storedSession == given)
        #expect(try await harness.sessions.currentSession() == given)
    }

    @Test("a refresh that fails with 503 or no network is a transient error and keeps the session", arguments: [
        StubReply.problem(status: 503), .unreachable, .failing(RiderError.timedOut),
    ])
    func transientRefreshFailureKeepsSession(reply: StubReply) async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.acceptRiderRequests(only: "access-2")
        // Unlimited: a GET whose refresh failed on the network is retried by the retry policy.
        harness.stubTokenEndpoint(with: reply)

        let error = await #expect(throws: RiderError.self) { try await harness.getRider() }
        switch error?.code {
        case .server? where error?.status == 503: break
        case .serverUnreachable?, .timedOut?: break
        default: Issue.record("expected a transient error, got \(String(describing: error))")
        }
        #expect(await harness.vault.storedSession == Fixtures.session())
        #expect(try await harness.sessions.currentSession() == Fixtures.session())
    }

    @Test("a second 401 after a successful refresh is returned, not retried again")
    func secondUnauthorizedIsNotRetried() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.acceptRiderRequests(only: "never")
        harness.stubTokenEndpoint(times: 1, with: .successful(Fixtures.renewedTokens))

        await #expect(throws: RiderError.sessionExpired) { try await harness.getRider() }
        #expect(harness.transport.count(.get, "/riders/me") == 2)
        #expect(harness.transport.count(.post, "/auth/token") == 1)
    }

    @Test("without a session an authorized request is .notSignedIn and sends nothing")
    func notSignedIn() async throws {
        let harness = try UseCaseHarness()

        await #expect(throws: RiderError.notSignedIn) { try await harness.getRider() }
        await #expect(throws: RiderError.notSignedIn) { try await harness.sessions.refresh() }
        #expect(harness.transport.requests.isEmpty)
    }

    @Test("an unreadable vault is .storage, not .notSignedIn")
    func unreadableVault() async throws {
        let harness = try UseCaseHarness.signedIn()
        await harness.vault.failLoads()

        await #expect(throws: RiderError.storage("the test vault cannot be read")) { try await harness.getRider() }
        #expect(harness.transport.requests.isEmpty)
    }
}
