import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("Login")
struct LoginTests {
    let tokenPath = "/auth/token"

    @Test("login stores the session it returns in the vault")
    func storesSession() async throws {
        let harness = try UseCaseHarness()
        harness.transport.stub(.post, tokenPath, times: 1, with: .successful(Fixtures.tokenResponse()))

        let session = try await harness.login(Fixtures.credentials)

        #expect(session.accessToken == Fixtures.accessToken)
        #expect(session.refreshToken == Fixtures.refreshToken)
        #expect(session.userID == Fixtures.userID)
        #expect(session.role == .user)
        #expect(session.issuedAt == Fixtures.epoch)
        #expect(session.expiresAt == Fixtures.epoch.addingTimeInterval(3600))
        #expect(await harness.vault.storedSession == session)
        #expect(try await harness.sessions.currentSession() == session)
    }

    @Test("when the session cannot be stored, the tokens just issued are revoked and the storage error is reported")
    func revokesWhatItCannotKeep() async throws {
        let harness = try UseCaseHarness()
        harness.transport.stub(.post, tokenPath, times: 1, with: .successful(Fixtures.tokenResponse()))
        harness.transport.stub(.post, "/auth/revoke", times: 2, with: .successful())
        await harness.vault.failSaves()

        let error = await #expect(throws: RiderError.self) { try await harness.login(Fixtures.credentials) }

        guard let riderError = error, riderError.code == .storage else {
            Issue.record("expected .storage, got \(String(describing: error))")
            return
        }
        let revoked = harness.transport.requests(.post, "/auth/revoke").map(\.formFields)
        #expect(revoked.map { $0["token"] } == [Fixtures.refreshToken, Fixtures.accessToken])
        #expect(await harness.vault.storedSession == nil)
        #expect(try await harness.sessions.currentSession() == nil)
    }

    @Test("the password grant form body is complete and percent-encoded")
    func passwordGrantBody() async throws {
        let harness = try UseCaseHarness()
        harness.transport.stub(.post, tokenPath, times: 1, with: .successful(Fixtures.tokenResponse()))
        let password = "a+b &c=d/e f%20ü"

        _ = try await harness.login(Credentials(email: "  ada@example.com\n", password: password))

        let request = try #require(harness.transport.requests(.post, tokenPath).first)
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(request.headers["Cache-Control"] == "no-store")
        #expect(request.headers["Authorization"] == nil)
        let pairs = request.formPairs.map { "\($0.0)=\($0.1)" }
        #expect(pairs == ["grant_type=password", "username=ada@example.com", "password=\(password)"])
        #expect(request.bodyText.contains("password=a%2Bb+%26c%3Dd%2Fe+f%2520%C3%BC"))
    }

    @Test("a public client names itself with client_id in the form")
    func publicClient() async throws {
        let harness = try UseCaseHarness(configuration: Fixtures.configuration(clientID: "rider-cli"))
        harness.transport.stub(.post, tokenPath, times: 1, with: .successful(Fixtures.tokenResponse()))

        _ = try await harness.login(Fixtures.credentials)

        let request = try #require(harness.transport.requests.first)
        #expect(request.formFields["client_id"] == "rider-cli")
        #expect(request.formFields["client_secret"] == nil)
        #expect(request.headers["Authorization"] == nil)
    }

    @Test("a confidential client authenticates with HTTP Basic of the form-encoded id and secret by default")
    func basicClientAuthentication() async throws {
        let harness = try UseCaseHarness(configuration: Fixtures.configuration(clientID: "rider cli", clientSecret: "s:cr+t"))
        harness.transport.stub(.post, tokenPath, times: 1, with: .successful(Fixtures.tokenResponse()))

        _ = try await harness.login(Fixtures.credentials)

        let request = try #require(harness.transport.requests.first)
        let expected = "Basic " + Data("rider+cli:s%3Acr%2Bt".utf8).base64EncodedString()
        #expect(request.headers["Authorization"] == expected)
        #expect(request.formFields["client_id"] == nil)
        #expect(request.formFields["client_secret"] == nil)
    }

    @Test("with body client authentication the id and secret travel as form fields")
    func bodyClientAuthentication() async throws {
        let configuration = try Fixtures.configuration(clientID: "rider-cli", clientSecret: "s3cret",
                                                       clientAuthentication: .requestBody)
        let harness = try UseCaseHarness(configuration: configuration)
        harness.transport.stub(.post, tokenPath, times: 1, with: .successful(Fixtures.tokenResponse()))

        _ = try await harness.login(Fixtures.credentials)

        let request = try #require(harness.transport.requests.first)
        #expect(request.formFields["client_id"] == "rider-cli")
        #expect(request.formFields["client_secret"] == "s3cret")
        #expect(request.headers["Authorization"] == nil)
    }

    @Test("when the token response has no user_id, /auth/me says whose session it is")
    func fetchesMeWithoutUserID() async throws {
        let harness = try UseCaseHarness()
        harness.transport.stub(.post, tokenPath, times: 1,
                               with: .successful(Fixtures.tokenResponse(userID: nil, role: nil)))
        harness.transport.stub(.get, "/auth/me", times: 1,
                               with: .successful(Fixtures.user(id: "u_000007", role: "admin")))

        let session = try await harness.login(Fixtures.credentials)

        #expect(session.userID == "u_000007")
        #expect(session.role == .admin)
        let me = try #require(harness.transport.requests(.get, "/auth/me").first)
        #expect(me.bearerToken == Fixtures.accessToken)
        #expect(await harness.vault.storedSession?.userID == "u_000007")
    }

    @Test("a wrong password is .invalidCredentials and stores nothing")
    func wrongPassword() async throws {
        let harness = try UseCaseHarness()
        harness.transport.stub(.post, tokenPath, times: 1,
                               with: .tokenError("invalid_grant", description: "wrong email or password"))

        await #expect(throws: RiderError.invalidCredentials) { try await harness.login(Fixtures.credentials) }
        #expect(await harness.vault.saveCount == 0)
    }

    @Test("a token response without access_token is .malformedResponse")
    func missingAccessToken() async throws {
        let harness = try UseCaseHarness()
        harness.transport.stub(.post, tokenPath, times: 1, with: .successful(Fixtures.tokenResponse(accessToken: nil)))

        let error = await #expect(throws: RiderError.self) { try await harness.login(Fixtures.credentials) }
        guard error?.code == .malformedResponse, case let what = error?.detail ?? "" else {
            Issue.record("expected .malformedResponse, got \(String(describing: error))")
            return
        }
        #expect(what.contains("access_token"))
        #expect(await harness.vault.saveCount == 0)
    }

    @Test("a token of type mac is refused with .unsupportedTokenType")
    func macToken() async throws {
        let harness = try UseCaseHarness()
        harness.transport.stub(.post, tokenPath, times: 1, with: .successful(Fixtures.tokenResponse(tokenType: "mac")))

        await #expect(throws: RiderError.unsupportedTokenType("mac")) { try await harness.login(Fixtures.credentials) }
        #expect(await harness.vault.saveCount == 0)
    }

    @Test("token_type is compared case-insensitively")
    func lowercaseBearer() async throws {
        let harness = try UseCaseHarness()
        harness.transport.stub(.post, tokenPath, times: 1, with: .successful(Fixtures.tokenResponse(tokenType: "bearer")))

        #expect(try await harness.login(Fixtures.credentials).tokenType == "Bearer")
    }

    static let lifetimes: [(FixtureJSON, TimeInterval?)] = [
        (.string("3600"), 3600),
        (.string(" 120 "), 120),
        (.integer(-5), nil),
        (.integer(0), nil),
        (.number(1e300), 366 * 24 * 3600),
        (.string("soon"), nil),
        (.null, nil),
    ]

    @Test("expires_in as a string, negative, zero, huge or garbage gives a sane expiry", arguments: lifetimes)
    func expiresIn(value: FixtureJSON, lifetime: TimeInterval?) async throws {
        let harness = try UseCaseHarness()
        harness.transport.stub(.post, tokenPath, times: 1, with: .successful(Fixtures.tokenResponse(expiresIn: value)))

        let session = try await harness.login(Fixtures.credentials)

        #expect(session.expiresAt == lifetime.map { Fixtures.epoch.addingTimeInterval($0) })
    }

    @Test("expires_in left out means the expiry is unknown")
    func expiresInAbsent() async throws {
        let harness = try UseCaseHarness()
        harness.transport.stub(.post, tokenPath, times: 1, with: .successful(Fixtures.tokenResponse(expiresIn: nil)))

        #expect(try await harness.login(Fixtures.credentials).expiresAt == nil)
    }

    @Test("a 5xx from the token endpoint is .server with its status")
    func serverError() async throws {
        let harness = try UseCaseHarness()
        harness.transport.stub(.post, tokenPath, times: 1, with: .problem(status: 503, detail: "maintenance"))

        await #expect(throws: RiderError.server(status: 503, detail: "maintenance")) {
            try await harness.login(Fixtures.credentials)
        }
    }

    @Test("an empty email or password is rejected before any request")
    func emptyFields() async throws {
        let harness = try UseCaseHarness()

        await #expect(throws: RiderError.invalidInput([
            FieldProblem(field: "email", message: "is required"),
            FieldProblem(field: "password", message: "is required"),
        ])) {
            try await harness.login(Credentials(email: "  ", password: ""))
        }
        #expect(harness.transport.requests.isEmpty)
    }

    @Test("the password never appears in any error", arguments: [
        StubReply.tokenError("invalid_grant"),
        .tokenError("invalid_request", description: "missing parameter"),
        .tokenError("invalid_client", status: 401),
        .status(401),
        .problem(status: 500, detail: "boom"),
        .status(200, body: "{\"access_token\": 42}"),
        .status(200, body: "not json"),
        .successful(Fixtures.tokenResponse(tokenType: "mac")),
        .unreachable,
        .failing(RiderError.timedOut),
    ])
    func passwordNeverInErrors(reply: StubReply) async throws {
        let harness = try UseCaseHarness()
        harness.transport.stub(.post, tokenPath, times: 1, with: reply)
        let credentials = Credentials(email: "ada@example.com", password: "SECRET-correct-horse")

        let error = await #expect(throws: (any Error).self) { try await harness.login(credentials) }
        for (how, text) in renderings(ofError: try #require(error)) {
            #expect(!text.contains("SECRET"), "\(how) shows the password: \(text)")
        }
    }
}
