import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("GetUser and CurrentUser")
struct GetUserTests {
    @Test("a user is fetched with the bearer token and stored in the cache")
    func fetchesAndCaches() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.get, "/users/u_000002", times: 1, with: .successful(
            Fixtures.user(id: "u_000002", email: "grace@example.com", displayName: "Grace", role: "admin",
                          riderType: "mentor")))

        let user = try await harness.getUser("u_000002").value

        #expect(user == User(id: "u_000002", email: "grace@example.com", displayName: "Grace", role: .admin,
                             riderType: .mentor, createdAt: Fixtures.epoch))
        #expect(harness.transport.requests.only?.bearerToken == Fixtures.accessToken)
        #expect(try await harness.cache.user(id: "u_000002")?.value == user)
    }

    @Test("an unknown user is .notFound and nothing is cached")
    func notFound() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.get, "/users/u_999999", times: 1, with: .problem(status: 404, detail: "no such user"))

        await #expect(throws: RiderError.notFound(detail: "no such user")) { try await harness.getUser("u_999999") }
        #expect(try await harness.cache.user(id: "u_999999") == nil)
    }

    @Test("an id is sent as one escaped path segment")
    func idIsEscaped() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(StubRoute("GET /users/{escaped}") { _ in true }, times: 1,
                               with: .status(404))

        await #expect(throws: RiderError.notFound(detail: nil)) { try await harness.getUser("a/b?c#d") }
        let url = try #require(harness.transport.requests.only?.url.absoluteString)
        #expect(url == "https://api.example.test/users/a%2Fb%3Fc%23d")
    }

    @Test("an empty id is rejected before any request")
    func emptyID() async throws {
        let harness = try UseCaseHarness.signedIn()

        await #expect(throws: RiderError.invalidInput([FieldProblem(field: "id", message: "is required")])) {
            try await harness.getUser(" ")
        }
        #expect(harness.transport.requests.isEmpty)
    }

    @Test("a dot segment is refused before any request, so `/users/..` never goes out with the token",
          arguments: [".", ".."])
    func dotSegment(id: String) async throws {
        let harness = try UseCaseHarness.signedIn()

        await #expect(throws: RiderError.invalidInput([FieldProblem(field: "id", message: "is not a user id")])) {
            try await harness.getUser(UserID(id))
        }
        #expect(harness.transport.requests.isEmpty)
        // And the endpoint itself never forms a dot segment.
        #expect(API.user(UserID(id)).path.hasPrefix("/users/%2E"))
    }

    @Test("malformed JSON is .malformedResponse naming the field, without echoing the payload", arguments: [
        ("{\"id\":\"u_000002\",\"email\":\"SECRET@example.com\",\"display_name\":42}", "display_name"),
        ("{\"id\":\"u_000002\",\"display_name\":\"SECRET\"}", "email"),
        ("{\"id\":\"u_000002\",\"email\":\"a@b.c\",\"display_name\":\"A\",\"created_at\":\"SECRET-date\"}", "created_at"),
        ("<html>SECRET</html>", "JSON"),
    ])
    func malformed(body: String, field: String) async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.get, "/users/u_000002", times: 1, with: .status(200, body: body))

        let error = await #expect(throws: RiderError.self) { try await harness.getUser("u_000002") }
        guard let riderError = error, riderError.code == .malformedResponse, case let what = riderError.detail ?? "" else {
            Issue.record("expected .malformedResponse, got \(String(describing: error))")
            return
        }
        #expect(what.contains(field), "\(what)")
        #expect(!what.contains("SECRET"), "\(what)")
    }

    @Test("the current user comes from /auth/me and is cached")
    func currentUser() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.get, "/auth/me", times: 1, with: .successful(Fixtures.user()))

        let user = try await harness.currentUser().value

        #expect(user.id == Fixtures.userID)
        #expect(try await harness.cache.user(id: Fixtures.userID)?.value == user)
    }
}
