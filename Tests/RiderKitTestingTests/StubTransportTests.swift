import Foundation
import RiderKit
import RiderKitTesting
import Testing

/// The stub every application test — and every embedding program's tests — relies on does what it promises.
@Suite("StubTransport")
struct StubTransportTests {
    func request(_ method: HTTPMethod, _ path: String) throws -> HTTPRequest {
        HTTPRequest(method: method, url: try #require(URL(string: "https://api.example.test" + path)))
    }

    @Test("scripts answer in order; a used-up script gives way to the next")
    func inOrder() async throws {
        let transport = StubTransport()
        transport.stub(.get, "/a", inOrder: [.status(401), .status(200)])
        transport.stub(.get, "/a", with: .status(204))

        var statuses: [Int] = []
        for _ in 0..<4 { statuses.append(try await transport.send(request(.get, "/a?x=1")).status) }

        #expect(statuses == [401, 200, 204, 204])
        #expect(transport.count(.get, "/a") == 4)
        #expect(transport.unusedScripts.isEmpty)
    }

    @Test("an unexpected request records an issue and throws an error that prints the request, secrets redacted")
    func unexpectedFailsLoudly() async throws {
        let transport = StubTransport()
        transport.stub(.post, "/auth/token", times: 1, with: .status(200))
        var unexpected = try request(.get, "/users/u_1?q=jo")
        unexpected.headers["Authorization"] = "Bearer stub-token"
        unexpected.headers["Accept"] = "application/json"

        // The issue is matched by its text, so an `#expect` failing inside cannot pass for it; the
        // error is checked outside, where nothing swallows a failure.
        var thrown: (any Error)?
        await withKnownIssue("the stub reports the unexpected request") {
            do { _ = try await transport.send(unexpected) } catch { thrown = error }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("GET https://api.example.test/users/u_1?q=jo") }
        }
        #expect(thrown is UnexpectedRequestError)

        #expect(transport.unexpectedRequests == [unexpected])
        let error = UnexpectedRequestError(request: unexpected, scriptedRoutes: ["POST /auth/token"])
        #expect(error.description.contains("GET https://api.example.test/users/u_1?q=jo"))
        #expect(error.description.contains("Authorization: <redacted>"))
        #expect(error.description.contains("Accept: application/json"))
        #expect(!error.description.contains("stub-token"))
        #expect(error.description.contains("POST /auth/token"))
    }

    @Test("a failing script throws its error")
    func failing() async throws {
        let transport = StubTransport()
        transport.stub(.get, "/a", with: .unreachable)

        await #expect(throws: RiderError.serverUnreachable(reason: "connection refused")) {
            try await transport.send(request(.get, "/a"))
        }
    }

    @Test("the delay is cancellable")
    func cancellableDelay() async throws {
        let transport = StubTransport(delay: .seconds(30))
        transport.stub(.get, "/a", with: .status(200))
        let request = try request(.get, "/a")

        let task = Task { try await transport.send(request) }
        task.cancel()

        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test("the manual clock moves only when told")
    func manualClock() {
        let clock = ManualClock()
        #expect(clock.now == Fixtures.epoch)
        clock.advance(by: 90)
        clock.advance(by: .milliseconds(500))
        #expect(clock.now == Fixtures.epoch.addingTimeInterval(90.5))
        clock.set(to: Fixtures.epoch)
        #expect(clock.now == Fixtures.epoch)
    }

    @Test("fixture JSON is valid JSON in the contract's snake_case")
    func fixturesAreJSON() throws {
        for fixture in [Fixtures.tokenResponse(), Fixtures.user(), Fixtures.rider(), Fixtures.userPage(users: [Fixtures.user()]),
                        Fixtures.problem(status: 422, errors: [(field: "email", message: "bad \"quoted\"\n")]),
                        Fixtures.tokenError("invalid_grant")] {
            let object = try JSONSerialization.jsonObject(with: fixture.data)
            #expect(object is [String: Any], "\(fixture)")
        }
        #expect(Fixtures.rider()["avatar_url"] == .null)
        #expect(Fixtures.tokenResponse(userID: nil)["user_id"] == nil)
    }
}
