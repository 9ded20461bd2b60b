import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

/// Refreshing before the token expires, driven by a ManualClock.
@Suite("Session engine: proactive refresh")
struct ProactiveRefreshTests {
    @Test("a token expiring within the leeway is refreshed before the request")
    func proactiveRefresh() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.acceptRiderRequests(only: "access-2")
        harness.stubTokenEndpoint(times: 1, with: .successful(Fixtures.renewedTokens))
        harness.clock.advance(by: 3600 - 59)

        _ = try await harness.getRider()

        #expect(harness.transport.requests.map(\.url.path) == ["/auth/token", "/riders/me"])
    }

    @Test("a token outside the leeway is used as it is")
    func noRefreshOutsideLeeway() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.acceptRiderRequests(only: Fixtures.accessToken)
        harness.clock.advance(by: 3600 - 61)

        _ = try await harness.getRider()

        #expect(harness.transport.count(.post, "/auth/token") == 0)
    }

    @Test("a short-lived token is not refreshed on every request: the leeway is capped at half the lifetime")
    func shortLivedToken() async throws {
        let harness = try UseCaseHarness.signedIn(Fixtures.session(lifetime: 30))
        harness.transport.stub(.get, "/riders/me", with: .successful(Fixtures.rider()))
        harness.stubTokenEndpoint(times: 1, with: .successful(
            Fixtures.tokenResponse(accessToken: "access-2", expiresIn: 30, refreshToken: "refresh-2")))

        harness.clock.advance(by: 14)
        _ = try await harness.getRider()
        #expect(harness.transport.count(.post, "/auth/token") == 0)

        harness.clock.advance(by: 2)
        _ = try await harness.getRider()
        #expect(harness.transport.count(.post, "/auth/token") == 1)

        harness.clock.advance(by: 1)
        _ = try await harness.getRider()
        #expect(harness.transport.count(.post, "/auth/token") == 1)
        #expect(harness.transport.requests(.get, "/riders/me").last?.bearerToken == "access-2")
    }

    @Test("a failed early refresh falls back to the token that is still valid")
    func proactiveRefreshFailureFallsBack() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.acceptRiderRequests(only: Fixtures.accessToken)
        harness.stubTokenEndpoint(times: 1, with: .problem(status: 503))
        harness.clock.advance(by: 3600 - 30)

        _ = try await harness.getRider()

        #expect(await harness.vault.storedSession == Fixtures.session())
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
}
