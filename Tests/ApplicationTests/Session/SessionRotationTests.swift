import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

/// What the engine keeps after a refresh, and what it never brings back.
@Suite("Session engine: rotation and persistence")
struct SessionRotationTests {
    @Test("rotation: the new refresh token is saved to the vault before the retry")
    func rotationSavedBeforeRetry() async throws {
        let harness = try UseCaseHarness.signedIn()
        let vault = harness.vault
        harness.transport.stub(.get, "/riders/me") { request in
            guard request.bearerToken == "access-2" else { return .problem(status: 401) }
            guard await vault.storedSession?.refreshToken == "refresh-2" else {
                return .problem(status: 500, detail: "retried before the rotated refresh token was saved")
            }
            return .successful(Fixtures.rider())
        }
        harness.stubTokenEndpoint(times: 1, with: .successful(Fixtures.renewedTokens))

        _ = try await harness.getRider()

        #expect(await vault.savedSessions.map(\.refreshToken) == ["refresh-2"])
    }

    @Test("a refresh response without refresh_token keeps the old one")
    func refreshWithoutNewRefreshToken() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.stubTokenEndpoint(times: 1, with: .successful(
            Fixtures.tokenResponse(accessToken: "access-2", refreshToken: nil, userID: nil, role: nil)))

        let session = try await harness.sessions.refresh()

        #expect(session.accessToken == "access-2")
        #expect(session.refreshToken == Fixtures.refreshToken)
        #expect(session.userID == Fixtures.userID)
        #expect(session.role == .user)
        #expect(await harness.vault.storedSession == session)
    }

    @Test("a refresh authenticates the client the way login does")
    func refreshAuthenticatesClient() async throws {
        let configuration = try Fixtures.configuration(clientID: "rider-cli", clientSecret: "s3cret")
        let harness = try UseCaseHarness.signedIn(configuration: configuration)
        harness.stubTokenEndpoint(times: 1, with: .successful(Fixtures.renewedTokens))

        _ = try await harness.sessions.refresh()

        let refresh = try #require(harness.transport.requests.only)
        #expect(refresh.headers["Authorization"] == "Basic " + Data("rider-cli:s3cret".utf8).base64EncodedString())
        #expect(refresh.formFields["refresh_token"] == Fixtures.refreshToken)
    }

    @Test("a rotated session that cannot be saved fails with .storage saying so, and this process keeps it")
    func rotationSaveFailure() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.stubTokenEndpoint(times: 1, with: .successful(Fixtures.renewedTokens))
        await harness.vault.failSaves()

        let error = await #expect(throws: RiderError.self) { try await harness.sessions.refresh() }
        guard let riderError = error, riderError.code == .storage, case let message = riderError.detail ?? "" else {
            Issue.record("expected .storage, got \(String(describing: error))")
            return
        }
        #expect(message.contains("the server renewed the session, but it could not be saved"), "\(message)")
        #expect(message.contains("sign in again") && message.contains("encrypted-file"), "\(message)")
        #expect(!message.contains("refresh-2") && !message.contains("access-2"), "\(message)")
        // The old refresh token is retired on the server: the new one stays in use here.
        harness.transport.stub(.get, "/riders/me") { request in
            request.bearerToken == "access-2" ? .successful(Fixtures.rider()) : .problem(status: 401)
        }
        _ = try await harness.getRider()
    }

    @Test("a cancelled request does not abandon the refresh other requests depend on")
    func cancellationDoesNotAbandonRefresh() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.acceptRiderRequests(only: "access-2")
        // The refresh is held until the test has cancelled the request that started it: a signal,
        // not a sleep a loaded machine could outlast.
        let (released, release) = AsyncStream.makeStream(of: Void.self)
        harness.transport.stub(.post, "/auth/token", times: 1) { _ in
            for await _ in released { break }
            // A refresh abandoned with that request is cancelled here, and fails.
            try Task.checkCancellation()
            return .successful(Fixtures.renewedTokens)
        }

        let first = Task { try await harness.getRider() }
        try await harness.transport.waitForRequests(.post, "/auth/token")
        first.cancel()
        release.finish()
        _ = try? await first.value
        let second = try await harness.getRider()

        #expect(second.userID == Fixtures.userID)
        #expect(harness.transport.count(.post, "/auth/token") == 1)
        #expect(await harness.vault.storedSession?.refreshToken == "refresh-2")
    }

    /// Whether `states` says logged out; `false` when it ends first, or after a minute (a hang
    /// detector, not a speed limit: the sign-out is then released all the same, and the test fails).
    private static func firstSignedOut(in states: AsyncStream<SessionState>) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await state in states where state == .signedOut(reason: .loggedOut) { return true }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(60))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    @Test("signing out while a refresh is under way does not bring the session back")
    func endDuringRefresh() async throws {
        let harness = try UseCaseHarness.signedIn()
        // The refresh is held until the sign-out is under way (the engine says signedOut; the
        // sign-out then waits for the refresh to finish): a signal, not a sleep.
        let (released, release) = AsyncStream.makeStream(of: Void.self)
        harness.transport.stub(.post, "/auth/token", times: 1) { _ in
            for await _ in released { break }
            return .successful(Fixtures.renewedTokens)
        }
        let states = await harness.sessions.states()

        let refresh = Task { try await harness.sessions.refresh() }
        try await harness.transport.waitForRequests(.post, "/auth/token")
        let end = Task { try await harness.sessions.end() }
        #expect(await Self.firstSignedOut(in: states), "the sign-out began while the refresh was held")
        release.finish()
        try await end.value
        _ = try? await refresh.value

        #expect(await harness.vault.storedSession == nil)
        #expect(try await harness.sessions.currentSession() == nil)
    }
}
