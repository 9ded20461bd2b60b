import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("CurrentUser cache policies; Logout and the cache")
struct CurrentUserCachePolicyTests {
    static let unreachable = RiderError.serverUnreachable(reason: "connection refused")

    @Test("by default the current user comes from the server, so whoami proves the session")
    func defaultIsNetwork() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.get, "/auth/me", times: 1, with: .successful(Fixtures.user()))

        let me = try await harness.currentUser()

        #expect(me.source == .network && me.id == Fixtures.userID)
    }

    @Test("network-first finds the signed-in user in the cache by the session's user id when offline")
    func networkFirstOffline() async throws {
        let harness = try UseCaseHarness.signedIn()
        try await harness.cache.store([User(id: Fixtures.userID, email: Fixtures.email, displayName: "Ada")],
                                      at: harness.clock.now)
        harness.transport.stub(.get, "/auth/me", times: RetryPolicy.standard.maxAttempts, with: .failure(Self.unreachable))

        let me = try await harness.currentUser(policy: .networkFirst)

        #expect(me.source == .offline(reason: Self.unreachable) && me.isStale && me.displayName == "Ada")
    }

    @Test("reading the current user from the cache needs someone signed in")
    func cacheOnlySignedOut() async throws {
        let harness = try UseCaseHarness()

        await #expect(throws: RiderError.notSignedIn) { try await harness.currentUser(policy: .cacheOnly) }
    }

    @Test("after the session expired, network-first goes to the server and meets the expiry, not .notSignedIn")
    func networkFirstAfterExpiry() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.stubTokenEndpoint(times: 1, with: .tokenError("invalid_grant"))
        await #expect(throws: RiderError.sessionExpired) { try await harness.sessions.refresh() }

        await #expect(throws: RiderError.sessionExpired) { try await harness.currentUser(policy: .networkFirst) }
    }

    @Test("logout can be told to keep the cache")
    func logoutKeepsCache() async throws {
        let harness = try UseCaseHarness.signedIn()
        try await harness.cache.store([User(id: "u_000009", email: "x@example.com", displayName: "X")], at: Fixtures.epoch)
        harness.transport.stub(.post, "/auth/revoke", times: 2, with: .successful())

        try await Logout(sessions: harness.sessions, cache: harness.cache, clearsCache: false)()

        #expect(try await harness.cache.user(id: "u_000009") != nil)
    }
}
