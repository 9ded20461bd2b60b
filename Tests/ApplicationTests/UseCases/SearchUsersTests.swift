import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("SearchUsers")
struct SearchUsersTests {
    @Test("the query is trimmed and percent-encoded: `a+b & c` round-trips")
    func queryEncoding() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.get, "/users/search", times: 1, with: .successful(Fixtures.userPage(users: [])))

        _ = try await harness.searchUsers("  a+b & c ", page: PageRequest(page: 2, limit: 5))

        let request = try #require(harness.transport.requests.only)
        let query = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedQuery)
        #expect(query == "q=a%2Bb%20%26%20c&page=2&limit=5")
        #expect(request.queryFields == ["q": "a+b & c", "page": "2", "limit": "5"])
        #expect(request.bearerToken == Fixtures.accessToken)
    }

    @Test("an empty or over-long query is rejected before any request", arguments: [
        "", "   ", "\n\t", String(repeating: "x", count: 101),
    ])
    func rejectsQuery(query: String) async throws {
        let harness = try UseCaseHarness.signedIn()

        let error = await #expect(throws: RiderError.self) { try await harness.searchUsers(query, page: PageRequest()) }
        guard let riderError = error, riderError.code == .invalidInput, case let problems = riderError.fieldProblems else {
            Issue.record("expected .invalidInput, got \(String(describing: error))")
            return
        }
        #expect(problems.map(\.field) == ["query"])
        #expect(harness.transport.requests.isEmpty)
    }

    @Test("a query of exactly 100 characters is sent")
    func longestQuery() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.get, "/users/search", times: 1, with: .successful(Fixtures.userPage(users: [])))

        _ = try await harness.searchUsers(String(repeating: "é", count: 100), page: PageRequest())
    }

    @Test("the results are returned and stored in the cache at the clock's time")
    func cachesResults() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.clock.advance(by: 90)
        harness.transport.stub(.get, "/users/search", times: 1, with: .successful(Fixtures.userPage(
            users: [Fixtures.user(id: "u_000002", displayName: "José García"), Fixtures.user(id: "u_000003")],
            total: 7, page: 1, limit: 2, hasNext: true)))

        let page = try await harness.searchUsers("jose", page: PageRequest(limit: 2))

        #expect(page.users.map(\.id) == ["u_000002", "u_000003"])
        #expect(page.total == 7 && page.hasNext)
        let cached = try #require(try await harness.cache.user(id: "u_000002"))
        #expect(cached.value.displayName == "José García")
        #expect(cached.storedAt == Fixtures.epoch.addingTimeInterval(90))
    }

    @Test("a page the server refuses is .invalidInput naming the field")
    func serverRejectsPage() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.get, "/users/search", times: 1, with: .problem(
            status: 400, errors: [(field: "page", message: "is past the last page")]))

        await #expect(throws: RiderError.invalidInput([FieldProblem(field: "page", message: "is past the last page")])) {
            try await harness.searchUsers("ada", page: PageRequest(page: 99))
        }
    }
}
