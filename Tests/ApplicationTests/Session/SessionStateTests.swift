import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("Session engine: observable state, terminal and transient failures, refresh loops")
struct SessionStateTests {
    /// Collects the first `count` states of `stream` (or what came within 5 s).
    private func collect(_ stream: AsyncStream<SessionState>, count: Int) -> Task<[SessionState], Never> {
        Task {
            var states: [SessionState] = []
            for await state in stream {
                states.append(state)
                if states.count == count { break }
            }
            return states
        }
    }

    @Test("the state stream starts with the stored session and follows a refresh and a logout")
    func streamFollowsLifecycle() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.stubTokenEndpoint(times: 1)
        let states = collect(await harness.sessions.states(), count: 4)

        let renewed = try await harness.sessions.refresh()
        try await harness.sessions.end()

        let user = Fixtures.userID
        #expect(await states.value == [
            .signedIn(userID: user, expiresAt: Fixtures.epoch.addingTimeInterval(3600)),
            .refreshing(userID: user),
            .signedIn(userID: user, expiresAt: renewed.expiresAt),
            .signedOut(reason: .loggedOut),
        ])
    }

    @Test("with no stored session the stream starts signed out")
    func streamStartsSignedOut() async throws {
        let harness = try UseCaseHarness()
        var iterator = await harness.sessions.states().makeAsyncIterator()
        #expect(await iterator.next() == .signedOut(reason: .noSession))
    }

    @Test("a rejected refresh token: vault cleared, signedOut emitted once, all 50 waiters get sessionExpired")
    func terminalRefreshFailure() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.acceptRiderRequests(only: "never")
        // Answer the refresh only once every request has been rejected and is waiting for it.
        harness.transport.stub(.post, "/auth/token", times: 1) { [transport = harness.transport] _ in
            try await transport.waitForRequests(.get, "/riders/me", count: 50)
            return .tokenError("invalid_grant")
        }
        let states = collect(await harness.sessions.states(), count: 3)

        let outcomes = await withTaskGroup(of: Result<Rider, any Error>.self) { group in
            for _ in 0..<50 {
                group.addTask { do { return .success(try await harness.getRider()) } catch { return .failure(error) } }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }

        #expect(outcomes.count == 50)
        #expect(outcomes.allSatisfy { if case .failure(RiderError.Code.sessionExpired) = $0 { true } else { false } })
        #expect(harness.transport.count(.post, "/auth/token") == 1)
        #expect(await harness.vault.storedSession == nil)
        let seen = await states.value
        #expect(seen.last == .signedOut(reason: .sessionExpired))
        #expect(seen.filter { $0 == .signedOut(reason: .sessionExpired) }.count == 1)
    }

    @Test("a 503 from the token endpoint is transient: the session stays, the state returns to signed in")
    func transientRefreshFailure() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.stubTokenEndpoint(times: 1, with: .problem(status: 503))
        let states = collect(await harness.sessions.states(), count: 3)

        await #expect(throws: RiderError.server(status: 503, detail: "Service Unavailable")) { try await harness.sessions.refresh() }

        #expect(await harness.vault.storedSession == Fixtures.session())
        let signedIn = SessionState.signedIn(userID: Fixtures.userID, expiresAt: Fixtures.epoch.addingTimeInterval(3600))
        #expect(await states.value == [signedIn, .refreshing(userID: Fixtures.userID), signedIn])
        // The next call tries again.
        harness.stubTokenEndpoint(times: 1)
        #expect(try await harness.sessions.refresh().accessToken == "access-2")
    }

    @Test("a server that rejects every fresh token is refreshed at most 5 times in 30 s, then again after")
    func refreshLoopGuard() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.acceptRiderRequests(only: "never")
        harness.transport.stub(.post, "/auth/token") { _ in
            .successful(Fixtures.tokenResponse(accessToken: "access-\(UUID().uuidString)", refreshToken: "refresh-\(UUID().uuidString)"))
        }

        for _ in 0..<8 { _ = try? await harness.getRider() }
        #expect(harness.transport.count(.post, "/auth/token") == 5)
        let refused = await #expect(throws: RiderError.self) { try await harness.getRider() }
        #expect(refused?.code == .server && refused?.status == 401
                && refused?.detail?.contains("stopped refreshing for 30 s") == true, "\(String(describing: refused))")
        #expect(harness.transport.count(.post, "/auth/token") == 5)

        harness.clock.advance(by: 31)
        _ = try? await harness.getRider()
        #expect(harness.transport.count(.post, "/auth/token") == 6)
    }
}
