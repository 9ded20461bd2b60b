import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("Logout")
struct LogoutTests {
    func harnessWithCachedUser() async throws -> UseCaseHarness {
        let harness = try UseCaseHarness.signedIn()
        try await harness.cache.store([User(id: "u_000009", email: "x@example.com", displayName: "X")],
                                      at: Fixtures.epoch)
        return harness
    }

    @Test("logout revokes the refresh token and then the access token, then clears the vault and the cache")
    func revokesThenClears() async throws {
        let harness = try await harnessWithCachedUser()
        let vault = harness.vault
        harness.transport.stub(.post, "/auth/revoke", times: 2) { _ in
            // Still signed in locally while the server is told.
            await vault.storedSession == nil ? .problem(status: 500, detail: "cleared before revoking") : .successful()
        }

        let outcome = try await harness.logout()

        #expect(outcome == Logout.Outcome(wasSignedIn: true, revokedOnServer: true))
        let revoked = harness.transport.requests(.post, "/auth/revoke").map(\.formFields)
        #expect(revoked.map { $0["token"] } == [Fixtures.refreshToken, Fixtures.accessToken])
        #expect(revoked.map { $0["token_type_hint"] } == ["refresh_token", "access_token"])
        #expect(harness.transport.requests.allSatisfy { $0.bearerToken == nil })
        #expect(await harness.vault.storedSession == nil)
        #expect(try await harness.cache.user(id: "u_000009") == nil)
        #expect(try await harness.sessions.currentSession() == nil)
    }

    @Test("logout still clears locally when the server is unreachable")
    func offline() async throws {
        let harness = try await harnessWithCachedUser()
        harness.transport.stub(.post, "/auth/revoke", with: .unreachable)

        let outcome = try await harness.logout()

        #expect(outcome.wasSignedIn && !outcome.revokedOnServer)
        #expect(outcome.revocationFailure?.code == .serverUnreachable, "says why")
        #expect(await harness.vault.storedSession == nil)
        #expect(try await harness.cache.user(id: "u_000009") == nil)
    }

    @Test("logout still clears locally when the server refuses to revoke")
    func revokeRefused() async throws {
        let harness = try await harnessWithCachedUser()
        harness.transport.stub(.post, "/auth/revoke", with: .problem(status: 500))

        let outcome = try await harness.logout()

        #expect(!outcome.revokedOnServer)
        #expect(await harness.vault.storedSession == nil)
    }

    @Test("a revocation endpoint's 401 is the provider's refusal with its error, not an expired session")
    func refusalKeepsTheProvidersWords() async throws {
        let harness = try await harnessWithCachedUser()
        harness.transport.stub(.post, "/auth/revoke", with: .response(HTTPResponse(
            status: 401, headers: ["Content-Type": "application/json"],
            body: Data(#"{"error":"invalid_client","error_description":"public clients may not revoke"}"#.utf8))))

        let outcome = try await harness.logout()

        #expect(!outcome.revokedOnServer)
        #expect(outcome.revocationFailure?.code == .server)
        #expect(outcome.revocationFailure?.status == 401)
        #expect(outcome.revocationFailure?.detail == "invalid_client: public clients may not revoke")
        #expect(await harness.vault.storedSession == nil)
    }

    @Test("a session without refresh token revokes only the access token")
    func accessTokenOnly() async throws {
        let harness = try UseCaseHarness.signedIn(Fixtures.session(refreshToken: nil))
        harness.transport.stub(.post, "/auth/revoke", times: 1, with: .successful())

        _ = try await harness.logout()

        #expect(harness.transport.requests.map { $0.formFields["token_type_hint"] } == ["access_token"])
    }

    @Test("logout when nobody is signed in sends nothing and says so")
    func notSignedIn() async throws {
        let harness = try UseCaseHarness()

        let outcome = try await harness.logout()

        #expect(outcome == Logout.Outcome(wasSignedIn: false, revokedOnServer: false))
        #expect(harness.transport.requests.isEmpty)
    }

    @Test("an unreadable vault entry is removed without contacting the server")
    func unreadableVault() async throws {
        let harness = try await harnessWithCachedUser()
        await harness.vault.failLoads()

        let outcome = try await harness.logout()

        #expect(outcome == Logout.Outcome(wasSignedIn: true, revokedOnServer: false))
        #expect(await harness.vault.removeCount == 1)
        #expect(try await harness.cache.user(id: "u_000009") == nil)
        #expect(harness.transport.requests.isEmpty)
    }

    @Test("a vault that cannot remove the session makes logout fail with .storage")
    func removalFails() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.post, "/auth/revoke", with: .successful())
        await harness.vault.failRemovals()

        await #expect(throws: RiderError.storage("the test vault refuses to delete")) { try await harness.logout() }
    }
}
