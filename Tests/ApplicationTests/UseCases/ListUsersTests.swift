import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("ListUsers")
struct ListUsersTests {
    /// `/users` with `count` users numbered from 1, paged as the server pages them.
    private func stubDirectory(_ harness: UseCaseHarness, count: Int) {
        harness.transport.stub(.get, "/users") { request in
            let page = Int(request.queryFields["page"] ?? "1") ?? 1
            let limit = Int(request.queryFields["limit"] ?? "20") ?? 20
            let ids = ((page - 1) * limit + 1)...max((page - 1) * limit + 1, min(count, page * limit))
            let users: [FixtureJSON] = (page - 1) * limit >= count ? [] : ids.map {
                Fixtures.user(id: String(format: "u_%06d", $0), email: "rider\($0)@example.com", displayName: "Rider \($0)")
            }
            return .successful(Fixtures.userPage(users: users, total: count, page: page, limit: limit,
                                                 hasNext: page * limit < count))
        }
    }

    @Test("one page is fetched with page and limit, and its users are cached")
    func onePage() async throws {
        let harness = try UseCaseHarness.signedIn()
        stubDirectory(harness, count: 45)

        let page = try await harness.listUsers(page: try PageRequest(page: 3, limit: 20))

        #expect(page.users.map(\.id.rawValue) == (41...45).map { String(format: "u_%06d", $0) })
        #expect(!page.hasNext && page.total == 45)
        #expect(harness.transport.requests.only?.queryFields == ["page": "3", "limit": "20"])
        #expect(try await harness.cache.statistics().entries == 5)
    }

    @Test("all() walks every page in order, one request per page, each page cached as one batch")
    func walksEveryPage() async throws {
        let harness = try UseCaseHarness.signedIn()
        stubDirectory(harness, count: 250)

        var ids: [String] = []
        for try await page in try harness.listUsers.all(pageSize: 100) {
            ids += page.users.map(\.id.rawValue)
            #expect(try await harness.cache.statistics().entries == ids.count, "written page by page")
        }

        #expect(ids == (1...250).map { String(format: "u_%06d", $0) })
        #expect(harness.transport.requests.map { $0.queryFields["page"] } == ["1", "2", "3"])
    }

    @Test("all() is lazy: nothing is sent until iteration, and only as far as the caller goes")
    func lazy() async throws {
        let harness = try UseCaseHarness.signedIn()
        stubDirectory(harness, count: 1_000)

        let pages = try harness.listUsers.all(pageSize: 10)
        #expect(harness.transport.requests.isEmpty)
        var iterator = pages.makeAsyncIterator()
        _ = try await iterator.next()
        _ = try await iterator.next()

        #expect(harness.transport.count(.get, "/users") == 2)
    }

    @Test("cancelling the iterating task stops the walk before the next request")
    func cancellable() async throws {
        let harness = try UseCaseHarness.signedIn()
        stubDirectory(harness, count: 1_000)
        let pages = try harness.listUsers.all(pageSize: 10)

        let walk = Task {
            var seen = 0
            for try await page in pages {
                seen += page.users.count
                withUnsafeCurrentTask { $0?.cancel() }
            }
            return seen
        }

        await #expect(throws: CancellationError.self) { try await walk.value }
        #expect(harness.transport.count(.get, "/users") == 1)
    }

    @Test("a page that fails with 503 is retried under the endpoint's retry policy, then the walk goes on")
    func retries() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.get, "/users", times: 1, with: .successful(Fixtures.userPage(
            users: [Fixtures.user(id: "u_000001")], total: 2, page: 1, limit: 1, hasNext: true)))
        harness.transport.stub(.get, "/users", times: 1, with: .problem(status: 503))
        harness.transport.stub(.get, "/users", times: 1, with: .successful(Fixtures.userPage(
            users: [Fixtures.user(id: "u_000002")], total: 2, page: 2, limit: 1, hasNext: false)))

        var ids: [String] = []
        for try await page in try harness.listUsers.all(pageSize: 1) { ids += page.users.map(\.id.rawValue) }

        #expect(ids == ["u_000001", "u_000002"])
        #expect(harness.clock.requestedSleeps.count == 1, "one backoff before the retry")
    }

    @Test("a server that keeps saying has_next with empty pages does not loop forever")
    func emptyPageEndsTheWalk() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.get, "/users", with: .successful(Fixtures.userPage(users: [], total: 5, hasNext: true)))

        var count = 0
        for try await _ in try harness.listUsers.all() { count += 1 }

        #expect(count == 1)
    }

    @Test("a page size out of 1…100 is .invalidInput naming limit; signed out is .notSignedIn")
    func errors() async throws {
        let harness = try UseCaseHarness()
        let tooLarge = #expect(throws: RiderError.self) { try harness.listUsers.all(pageSize: 101) }
        #expect(tooLarge?.code == .invalidInput && tooLarge?.fieldProblems.map(\.field) == ["limit"], "\(String(describing: tooLarge))")

        await #expect(throws: RiderError.notSignedIn) { try await harness.listUsers(page: try PageRequest()) }
        #expect(harness.transport.requests.isEmpty)
    }
}
