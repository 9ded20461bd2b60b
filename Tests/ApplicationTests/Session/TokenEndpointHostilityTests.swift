import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

/// A token endpoint that answers a refresh badly: each answer gets a typed error, and the session
/// in the vault is removed only when the refresh token is known to be dead: a garbled answer
/// must not cost a session that still works.
@Suite("Session engine: a hostile token endpoint during refresh")
struct TokenEndpointHostilityTests {
    /// What the engine must do with one bad refresh answer.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var reply: StubReply
        var expected: RiderError
        /// Whether the stored session survives (the refresh token is not known to be dead).
        var keepsSession: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "invalid_grant", reply: .tokenError("invalid_grant"), expected: .sessionExpired, keepsSession: false),
        Case(name: "invalid_grant with 401", reply: .tokenError("invalid_grant", status: 401),
             expected: .sessionExpired, keepsSession: false),
        Case(name: "invalid_client", reply: .tokenError("invalid_client", status: 401),
             expected: .invalidConfiguration("the token endpoint rejected the client id or secret"), keepsSession: true),
        Case(name: "unauthorized_client", reply: .tokenError("unauthorized_client"),
             expected: .invalidConfiguration("the token endpoint rejected the client id or secret"), keepsSession: true),
        Case(name: "token_type mac", reply: .successful(Fixtures.tokenResponse(accessToken: "access-2", tokenType: "mac")),
             expected: .unsupportedTokenType("mac"), keepsSession: true),
        Case(name: "token_type missing", reply: .successful(Fixtures.tokenResponse(accessToken: "access-2", tokenType: nil)),
             expected: .unsupportedTokenType("none"), keepsSession: true),
        Case(name: "access_token missing", reply: .successful(Fixtures.tokenResponse(accessToken: nil)),
             expected: .malformedResponse("the token response has no access_token"), keepsSession: true),
        Case(name: "access_token a number", reply: .status(200, body: #"{"access_token": 42, "token_type": "Bearer"}"#),
             expected: .malformedResponse("the token response is not valid (wrong type at access_token)"),
             keepsSession: true),
        Case(name: "an HTML page with status 200", reply: .status(200, body: "<html><body>Welcome</body></html>"),
             expected: .malformedResponse("the token response is not valid (not JSON)"), keepsSession: true),
    ]

    @Test("each bad refresh answer is a typed error; only a dead refresh token removes the session", arguments: cases)
    func badRefreshAnswer(_ testCase: Case) async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.stubTokenEndpoint(times: 1, with: testCase.reply)

        await #expect(throws: testCase.expected) { try await harness.sessions.refresh() }

        let stored = await harness.vault.storedSession
        #expect(stored == (testCase.keepsSession ? Fixtures.session() : nil))
        #expect(await harness.vault.saveCount == 0)
    }

    static let unusableTokens: [String] = [
        "access-2\r\nX-Injected: 1",
        "access 2",
        "accèss-2",
        "access-2\u{7}",
        String(repeating: "a", count: 16 * 1024 + 1),
    ]

    @Test("an access token that cannot travel in an Authorization header is refused, and nothing is stored",
          arguments: unusableTokens)
    func unusableAccessToken(_ token: String) async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.stubTokenEndpoint(times: 1, with: .successful(Fixtures.tokenResponse(accessToken: token)))

        let error = await #expect(throws: RiderError.self) { try await harness.sessions.refresh() }

        guard let riderError = error, riderError.code == .malformedResponse, case let what = riderError.detail ?? "" else {
            Issue.record("expected .malformedResponse, got \(String(describing: error))")
            return
        }
        #expect(what.contains("access_token"))
        #expect(!what.contains(token))
        #expect(await harness.vault.storedSession == Fixtures.session())
    }

    @Test("a refresh token with control characters is refused, not stored")
    func unusableRefreshToken() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.stubTokenEndpoint(times: 1, with: .successful(
            Fixtures.tokenResponse(accessToken: "access-2", refreshToken: "refresh-2\n")))

        let error = await #expect(throws: RiderError.self) { try await harness.sessions.refresh() }

        guard let riderError = error, riderError.code == .malformedResponse, case let what = riderError.detail ?? "" else {
            Issue.record("expected .malformedResponse, got \(String(describing: error))")
            return
        }
        #expect(what.contains("refresh_token"))
        #expect(await harness.vault.saveCount == 0)
    }

    static let lifetimes: [(FixtureJSON, TimeInterval?)] = [
        (.integer(-1), nil),
        (.integer(0), nil),
        (.number(1e300), TokenGrant.maximumLifetime),
        (.string("1e400"), nil),
        (.string("nan"), nil),
        (.string("-inf"), nil),
        (.string("forever"), nil),
        (.bool(true), nil),
        (.array([.integer(60)]), nil),
        (.string("90"), 90),
    ]

    @Test("expires_in negative, zero, huge, infinite or not a number: the refreshed session has a sane expiry",
          arguments: lifetimes)
    func refreshedLifetime(_ value: FixtureJSON, lifetime: TimeInterval?) async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.stubTokenEndpoint(times: 1, with: .successful(
            Fixtures.tokenResponse(accessToken: "access-2", expiresIn: value)))

        let session = try await harness.sessions.refresh()

        #expect(session.accessToken == "access-2")
        #expect(session.expiresAt == lifetime.map { harness.clock.now.addingTimeInterval($0) })
        #expect(await harness.vault.storedSession == session)
    }

    @Test("a refresh response whose refresh_token is empty keeps the old one (RFC 6749 §6)")
    func emptyRefreshTokenKeepsOld() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.stubTokenEndpoint(times: 1, with: .successful(
            Fixtures.tokenResponse(accessToken: "access-2", refreshToken: "")))

        let session = try await harness.sessions.refresh()

        #expect(session.refreshToken == Fixtures.refreshToken)
        #expect(await harness.vault.storedSession?.refreshToken == Fixtures.refreshToken)
    }

    @Test("a refresh answer for another user is refused: the signed-in user does not change, the session ends (its refresh token is spent) and the answer's tokens are revoked")
    func otherUser() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.stubTokenEndpoint(times: 1, with: .successful(
            Fixtures.tokenResponse(accessToken: "access-2", refreshToken: "refresh-2", userID: "u_999999")))
        harness.transport.stub(.post, harness.configuration.revokePath, with: .status(200))

        let thrown = await #expect(throws: RiderError.self) { try await harness.sessions.refresh() }
        #expect(thrown?.code == .untrustedAuthorizationResponse)
        #expect(thrown?.detail == "the refresh answer is for a different user than the session")

        #expect(await harness.vault.storedSession == nil)
        #expect(try await harness.sessions.currentSession() == nil, "not switched to u_999999: ended")
        #expect(harness.transport.count(.post, harness.configuration.revokePath) == 2)
    }
}
