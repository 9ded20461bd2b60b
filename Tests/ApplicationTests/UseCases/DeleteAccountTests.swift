import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("DeleteAccount")
struct DeleteAccountTests {
    private func stubRevocation(_ harness: UseCaseHarness) {
        harness.transport.stub(.post, "/auth/revoke", with: .status(200))
    }

    @Test("deleting sends DELETE /riders/me, revokes the session, removes the vault entry and empties the cache")
    func deletes() async throws {
        let harness = try UseCaseHarness.signedIn()
        try await harness.cache.store([User(id: Fixtures.userID, email: Fixtures.email, displayName: Fixtures.displayName),
                                       User(id: "u_000002", email: "b@example.com", displayName: "B")],
                                      at: Fixtures.epoch)
        harness.transport.stub(.delete, "/riders/me", times: 1, with: .status(204))
        stubRevocation(harness)

        let outcome = try await harness.deleteAccount()

        #expect(outcome == DeleteAccount.Outcome(userID: Fixtures.userID, deletedNow: true))
        #expect(harness.transport.requests(.delete, "/riders/me").only?.bearerToken == Fixtures.accessToken)
        #expect(harness.transport.requests(.post, "/auth/revoke").map { $0.formFields["token"] }
                == [Fixtures.refreshToken, Fixtures.accessToken])
        #expect(await harness.vault.storedSession == nil)
        #expect(try await harness.cache.statistics().entries == 0)
    }

    @Test("when the server cannot be reached nothing is deleted here either: the session and cache stay")
    func offlineKeepsEverything() async throws {
        let harness = try UseCaseHarness.signedIn()
        try await harness.cache.store([User(id: Fixtures.userID, email: Fixtures.email, displayName: "A")], at: Fixtures.epoch)
        harness.transport.stub(.delete, "/riders/me", with: .unreachable)

        await #expect(throws: RiderError.serverUnreachable(reason: "connection refused")) { try await harness.deleteAccount() }

        #expect(await harness.vault.storedSession == Fixtures.session())
        #expect(try await harness.cache.statistics().entries == 1)
    }

    @Test("an account the server no longer has is still forgotten here")
    func alreadyGone() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.delete, "/riders/me", times: 1, with: .problem(status: 404))
        stubRevocation(harness)

        let outcome = try await harness.deleteAccount()

        #expect(!outcome.deletedNow)
        #expect(await harness.vault.storedSession == nil)
    }

    @Test("after the session expired it is .sessionExpired, not .notSignedIn, and nothing is deleted")
    func afterExpiry() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.stubTokenEndpoint(times: 1, with: .tokenError("invalid_grant"))
        await #expect(throws: RiderError.sessionExpired) { try await harness.sessions.refresh() }

        await #expect(throws: RiderError.sessionExpired) { try await harness.deleteAccount() }
        #expect(harness.transport.count(.delete, "/riders/me") == 0)
    }

    @Test("signed out it is .notSignedIn and sends nothing")
    func signedOut() async throws {
        let harness = try UseCaseHarness()

        await #expect(throws: RiderError.notSignedIn) { try await harness.deleteAccount() }
        #expect(harness.transport.requests.isEmpty)
    }
}
