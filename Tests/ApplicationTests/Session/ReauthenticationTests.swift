import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("Re-authentication hook: a session expired for good is renewed by signing in again")
struct ReauthenticationTests {
    /// Counts how often the handler ran and answers with scripted credentials.
    final class Answers: @unchecked Sendable {
        // @unchecked: both arrays are only touched while `lock` is held.
        private let lock = NSLock()
        private var asked: [Reauthentication.Request] = []
        private var replies: [Credentials?]
        init(_ replies: [Credentials?]) { self.replies = replies }
        var calls: [Reauthentication.Request] { lock.withLock { asked } }
        func next(_ request: Reauthentication.Request) -> Credentials? {
            lock.withLock {
                asked.append(request)
                return replies.isEmpty ? nil : replies.removeFirst()
            }
        }
    }

    /// A server whose refresh grant is rejected (the session is over), whose password grant
    /// accepts only `Fixtures.password` and issues `access-new`, and whose profile accepts only
    /// `access-new` (`onRiderRequest` is told of each profile request as it arrives).
    private func expiredSessionServer(_ harness: UseCaseHarness,
                                      onRiderRequest: @escaping @Sendable (HTTPRequest) -> Void = { _ in }) {
        harness.transport.stub(.post, "/auth/token") { request in
            guard request.formFields["grant_type"] == "password" else { return .tokenError("invalid_grant") }
            guard request.formFields["password"] == Fixtures.password else { return .tokenError("invalid_grant") }
            return .successful(Fixtures.tokenResponse(accessToken: "access-new", refreshToken: "refresh-new"))
        }
        harness.acceptRiderRequests(only: "access-new", onRequest: onRiderRequest)
    }

    /// The rider's profile (`GET /riders/me`) through the harness's engine with a re-authentication
    /// handler answering `answers`, and the engine (which counts the handler's calls).
    private func getRider(_ harness: UseCaseHarness, _ answers: Answers, whileAsking: Reauthentication.WhileAsking = .wait,
                          attempts: Int = 3) async -> (@Sendable () async throws -> Rider, SessionEngine) {
        let api = await harness.api(reauthenticating:
            Reauthentication(whileAsking: whileAsking, maximumAttempts: attempts) { answers.next($0) })
        return ({ try await api.send(API.myRider) }, harness.sessions)
    }

    @Test("the handler is asked once, with the account's email from the cache; the request is sent again and succeeds")
    func reauthenticatesAndRetries() async throws {
        let harness = try UseCaseHarness.signedIn()
        try await harness.cache.store([User(id: Fixtures.userID, email: Fixtures.email, displayName: "Ada")], at: Fixtures.epoch)
        expiredSessionServer(harness)
        let answers = Answers([Fixtures.credentials])
        let (getRider, _) = await getRider(harness, answers)

        let rider = try await getRider()

        #expect(rider.displayName == Fixtures.displayName)
        #expect(answers.calls == [Reauthentication.Request(userID: Fixtures.userID, email: Fixtures.email, attempt: 1)])
        #expect(await harness.vault.storedSession?.accessToken == "access-new")
        #expect(harness.transport.requests(.get, "/riders/me").map(\.bearerToken) == [Fixtures.accessToken, "access-new"])
    }

    @Test("declining is .sessionExpired, and nothing is sent again")
    func declining() async throws {
        let harness = try UseCaseHarness.signedIn()
        expiredSessionServer(harness)
        let answers = Answers([nil])
        let (getRider, _) = await getRider(harness, answers)

        await #expect(throws: RiderError.sessionExpired) { try await getRider() }
        #expect(harness.transport.count(.get, "/riders/me") == 1)
        #expect(harness.transport.requests(.post, "/auth/token").allSatisfy { $0.formFields["grant_type"] == "refresh_token" })
    }

    @Test("a wrong password asks again; after the last attempt it is .invalidCredentials")
    func wrongPassword() async throws {
        let harness = try UseCaseHarness.signedIn()
        expiredSessionServer(harness)
        let wrong = Credentials(email: Fixtures.email, password: "wrong password")
        let retried = Answers([wrong, Fixtures.credentials])
        let (succeeds, _) = await getRider(harness, retried)
        _ = try await succeeds()
        #expect(retried.calls.map(\.attempt) == [1, 2])

        let other = try UseCaseHarness.signedIn()
        expiredSessionServer(other)
        let (fails, _) = await getRider(other, Answers([wrong, wrong]), attempts: 2)
        await #expect(throws: RiderError.invalidCredentials) { try await fails() }
    }

    @Test("many requests meet the expired session at once: one question, one sign-in, every request succeeds")
    func concurrentRequestsWait() async throws {
        let harness = try UseCaseHarness.signedIn()
        expiredSessionServer(harness)
        let answers = Answers([Fixtures.credentials])
        let (getRider, _) = await getRider(harness, answers)

        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<20 { group.addTask { (try? await getRider()) != nil } }
            var results: [Bool] = []
            for await result in group { results.append(result) }
            return results
        }

        #expect(results == Array(repeating: true, count: 20))
        #expect(await harness.sessions.handlerCalls == 1)
        #expect(harness.transport.requests(.post, "/auth/token").filter { $0.formFields["grant_type"] == "password" }.count == 1)
    }

    // Such a request once read "no session" while the engine was removing the expired one, took
    // it for "never signed in" and failed with .notSignedIn instead of waiting.
    @Test("a request that starts while the expired session is being removed waits for the same question; both succeed")
    func requestStartingDuringExpiry() async throws {
        let harness = try UseCaseHarness.signedIn()
        // Yields for each profile request sent with the expired token.
        let (expiredTokenSent, report) = AsyncStream.makeStream(of: Void.self)
        expiredSessionServer(harness) { request in
            if request.bearerToken == Fixtures.accessToken { report.yield() }
        }
        let removal = await harness.vault.holdNextRemoval()
        let answers = Answers([Fixtures.credentials])
        let (getRider, _) = await getRider(harness, answers)

        let first = Task { try await getRider() }
        // The first request's refresh was rejected; the engine is removing the expired session.
        for await _ in removal.reached { break }
        let second = Task {
            // Also when it ends without reaching the server, so the test cannot hang.
            defer { report.yield() }
            return try await getRider()
        }
        // The first request's profile request, then the second's (or its end).
        var reports = 0
        for await _ in expiredTokenSent {
            reports += 1
            if reports == 2 { break }
        }
        removal.release()

        #expect(try await first.value.displayName == Fixtures.displayName)
        #expect(try await second.value.displayName == Fixtures.displayName)
        #expect(await harness.sessions.handlerCalls == 1)
        #expect(harness.transport.requests(.post, "/auth/token").map { $0.formFields["grant_type"] }
            == ["refresh_token", "password"])
    }

    @Test("a request that starts after the session expired, before anyone was asked, asks once and succeeds")
    func requestStartingAfterExpiry() async throws {
        let harness = try UseCaseHarness.signedIn()
        expiredSessionServer(harness)
        let answers = Answers([Fixtures.credentials])
        let (getRider, _) = await getRider(harness, answers)
        // Found outside a request (as `rider session refresh` does): nobody has been asked.
        await #expect(throws: RiderError.sessionExpired) { try await harness.sessions.refresh() }

        let rider = try await getRider()

        #expect(rider.displayName == Fixtures.displayName)
        #expect(await harness.sessions.handlerCalls == 1)
        #expect(harness.transport.requests(.get, "/riders/me").map(\.bearerToken) == ["access-new"])
    }

    @Test("fail-fast: a request arriving while the person is being asked fails with .awaitingAuthorization")
    func failFast() async throws {
        let harness = try UseCaseHarness.signedIn()
        expiredSessionServer(harness)
        let (entered, enter) = AsyncStream.makeStream(of: Void.self)
        let (release, proceed) = AsyncStream.makeStream(of: Void.self)
        let api = await harness.api(reauthenticating: Reauthentication(whileAsking: .failFast) { _ in
            enter.yield()
            for await _ in release { break }
            return Fixtures.credentials
        })
        let getRider: @Sendable () async throws -> Rider = { try await api.send(API.myRider) }

        let first = Task { try await getRider() }
        for await _ in entered { break }
        await #expect(throws: RiderError.awaitingAuthorization) { try await getRider() }
        proceed.yield()

        #expect(try await first.value.displayName == Fixtures.displayName)
    }

    @Test("a logout is not an expiry: no question is asked and .notSignedIn stands")
    func logoutIsNotExpiry() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.post, "/auth/revoke", with: .status(200))
        let answers = Answers([Fixtures.credentials])
        let (getRider, _) = await getRider(harness, answers)
        try await harness.logout()

        await #expect(throws: RiderError.notSignedIn) { try await getRider() }
        #expect(answers.calls.isEmpty)
    }

    @Test("a logout after the session expired is a sign-out: no question is asked and .notSignedIn stands")
    func logoutAfterExpiry() async throws {
        let harness = try UseCaseHarness.signedIn()
        expiredSessionServer(harness)
        let answers = Answers([Fixtures.credentials])
        let (getRider, _) = await getRider(harness, answers)
        await #expect(throws: RiderError.sessionExpired) { try await harness.sessions.refresh() }

        let outcome = try await harness.logout()

        #expect(outcome == Logout.Outcome(wasSignedIn: false, revokedOnServer: false))
        await #expect(throws: RiderError.notSignedIn) { try await getRider() }
        #expect(answers.calls.isEmpty)
    }

    @Test("signing in as someone else does not carry on the original request")
    func otherAccount() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.post, "/auth/token") { request in
            request.formFields["grant_type"] == "password"
                ? .successful(Fixtures.tokenResponse(accessToken: "access-other", userID: "u_000099"))
                : .tokenError("invalid_grant")
        }
        harness.acceptRiderRequests(only: "access-other")
        let (getRider, _) = await getRider(harness, Answers([Credentials(email: "someone@example.com", password: "pw")]))

        await #expect(throws: RiderError.sessionExpired) { try await getRider() }
        #expect(harness.transport.count(.get, "/riders/me") == 1)
    }
}
