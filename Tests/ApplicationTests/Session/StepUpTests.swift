import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

/// A resource that wants a scope the session lacks (`403`, `insufficient_scope`, RFC 6750 §3.1)
/// gets a new sign-in asking for it too, once per request; without anyone to ask, or when the new
/// session is refused again, the error names the scope.
@Suite("Step-up: a sign-in for the scope a resource asks for")
struct StepUpTests {
    static let wanted = "rider:admin"
    static let refusal = StubReply.problem(status: 403, headers: [
        "WWW-Authenticate": #"Bearer error="insufficient_scope", scope="rider:admin", resource_metadata="https://api.example.test/.well-known/oauth-protected-resource""#,
    ])

    /// Records every question and answers with the fixture's credentials (or declines).
    final class Asked: @unchecked Sendable {
        private let lock = NSLock()
        private var requests: [Reauthentication.Request] = []
        let declines: Bool
        init(declines: Bool = false) { self.declines = declines }
        var all: [Reauthentication.Request] { lock.withLock { requests } }
        func answer(_ request: Reauthentication.Request) -> SignInFlow? {
            lock.withLock { requests.append(request) }
            return declines ? nil : .password(Fixtures.credentials)
        }
    }

    /// The harness's configuration asking for `profile`; the token endpoint issues `access-admin`
    /// to a password sign-in, for the signed-in user unless told another.
    func harness(signingInAs userID: String = Fixtures.userID.rawValue) throws -> UseCaseHarness {
        var configuration = try Fixtures.configuration()
        configuration.scope = "profile"
        let harness = try UseCaseHarness.signedIn(configuration: configuration)
        harness.transport.stub(.post, "/auth/token", with: .successful(
            Fixtures.tokenResponse(accessToken: "access-admin", refreshToken: "refresh-admin", userID: userID)))
        return harness
    }

    @Test("the person is asked with the scope; the sign-in asks for the configured scope and it; the request is sent again")
    func stepsUpOnce() async throws {
        let harness = try harness()
        harness.transport.stub(.get, "/riders/me") { request in
            request.bearerToken == "access-admin" ? .successful(Fixtures.rider(), headers: ["ETag": "\"v1\""]) : Self.refusal
        }
        let asked = Asked()
        let api = await harness.api(steppingUpWith: Reauthentication { asked.answer($0) })

        let rider = try await api.send(API.myRider)

        #expect(rider.displayName == Fixtures.displayName)
        #expect(asked.all.map(\.scope) == [Self.wanted])
        #expect(harness.transport.requests(.post, "/auth/token").map { $0.formFields["scope"] } == ["profile rider:admin"])
        #expect(harness.transport.requests(.get, "/riders/me").map(\.bearerToken) == [Fixtures.accessToken, "access-admin"])
        #expect(await harness.vault.storedSession?.accessToken == "access-admin")
    }

    @Test("two requests refused for one scope share one sign-in; signed in as someone else, neither carries on")
    func sharedSignInAsSomeoneElse() async throws {
        let harness = try harness(signingInAs: "u_000099")
        harness.transport.stub(.get, "/riders/me") { request in
            request.bearerToken == "access-admin" ? .successful(Fixtures.rider(), headers: ["ETag": "\"v1\""]) : Self.refusal
        }
        // The person answers only once both requests have been refused, so the second joins the
        // sign-in the first started.
        let asked = Asked()
        let transport = harness.transport
        let api = await harness.api(steppingUpWith: Reauthentication { request in
            for _ in 0..<6000 where transport.count(.get, "/riders/me") < 2 { try? await Task.sleep(for: .milliseconds(10)) }
            return asked.answer(request)
        })

        let requests = [Task { try await api.send(API.myRider) }, Task { try await api.send(API.myRider) }]
        for request in requests {
            await #expect(throws: RiderError.sessionExpired) { try await request.value }
        }
        #expect(asked.all.count == 1, "one sign-in for both")
        #expect(transport.count(.get, "/riders/me") == 2, "neither request was sent as the other account")
    }

    @Test("refused again after the step-up: one sign-in only, and the error names the scope asked for")
    func boundedToOne() async throws {
        let harness = try harness()
        harness.transport.stub(.get, "/riders/me", with: Self.refusal)
        let asked = Asked()
        let api = await harness.api(steppingUpWith: Reauthentication { asked.answer($0) })

        let error = await #expect(throws: RiderError.self) { try await api.send(API.myRider) }

        #expect(error?.code == .forbidden && (error?.underlying as? InsufficientScope)?.scope == Self.wanted)
        #expect(error?.message.contains("rider:admin") == true)
        #expect(asked.all.count == 1 && harness.transport.requests(.get, "/riders/me").count == 2)
    }

    @Test("declined, or nobody to ask: the refusal names the scope, and nothing is signed in")
    func declinedOrNobody() async throws {
        for declines in [true, false] {
            let harness = try harness()
            harness.transport.stub(.get, "/riders/me", with: Self.refusal)
            let api = declines ? await harness.api(steppingUpWith: Reauthentication { Asked(declines: true).answer($0) })
                : harness.api
            let error = await #expect(throws: RiderError.self) { try await api.send(API.myRider) }
            #expect((error?.underlying as? InsufficientScope)?.scope == Self.wanted, "declines: \(declines)")
            #expect(harness.transport.requests(.post, "/auth/token").isEmpty)
            #expect(await harness.vault.storedSession?.accessToken == Fixtures.accessToken)
        }
    }

    @Test("a 403 without insufficient_scope is a plain refusal: nobody is asked")
    func plainForbidden() async throws {
        let harness = try harness()
        harness.transport.stub(.get, "/riders/me", with: .problem(status: 403, detail: "hidden"))
        let asked = Asked()
        let api = await harness.api(steppingUpWith: Reauthentication { asked.answer($0) })

        let error = await #expect(throws: RiderError.self) { try await api.send(API.myRider) }

        #expect(error?.code == .forbidden && error?.underlying == nil && asked.all.isEmpty)
    }

    @Test("scopes are joined without repeats, in order")
    func union() {
        #expect(AuthorizationServer.union("openid profile", "profile rider:admin") == "openid profile rider:admin")
        #expect(AuthorizationServer.union(nil, "a") == "a" && AuthorizationServer.union(nil, nil) == nil)
    }
}
