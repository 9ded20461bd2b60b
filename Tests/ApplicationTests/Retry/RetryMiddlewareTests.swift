import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("Retry policy: what is sent again, and when")
struct RetryMiddlewareTests {
    private static let resource = "https://api.example.test/users/u_1"

    private func request(_ method: HTTPMethod, ifMatch: String? = nil) throws -> HTTPRequest {
        var request = HTTPRequest(method: method, url: try #require(URL(string: Self.resource)))
        if let ifMatch { request.headers["If-Match"] = ifMatch }
        return request
    }

    private func retrying(_ stub: StubTransport, _ clock: ManualClock,
                          policy: RetryPolicy = .standard) -> any HTTPTransport {
        RequestPipeline(transport: stub, middlewares: [RetryMiddleware(clock: clock, random: { 0.5 })])
            .transport(for: RequestOptions(retryPolicy: policy))
    }

    @Test("GET on 503 with Retry-After: 2 waits 2 s of injected time, then succeeds")
    func retryAfterSeconds() async throws {
        let stub = StubTransport()
        let clock = ManualClock()
        stub.stub(.get, "/users/u_1", inOrder: [.status(503, headers: ["Retry-After": "2"]), .successful(body: "ok")])

        let response = try await retrying(stub, clock).send(try request(.get))

        #expect(response.status == 200)
        #expect(clock.requestedSleeps == [2])
        #expect(stub.count(.get, "/users/u_1") == 2)
    }

    @Test("Retry-After as an HTTP date is measured against the response's own Date header")
    func retryAfterDate() async throws {
        let stub = StubTransport()
        let clock = ManualClock()
        // The device clock is an hour off; only the server's two dates matter.
        clock.advance(by: 3600)
        let serverNow = Fixtures.epoch
        stub.stub(.get, "/users/u_1", inOrder: [
            .status(503, headers: ["Date": HTTPDate.format(serverNow),
                                   "Retry-After": HTTPDate.format(serverNow.addingTimeInterval(5))]),
            .successful(body: "ok"),
        ])

        _ = try await retrying(stub, clock).send(try request(.get))

        #expect(clock.requestedSleeps == [5])
    }

    @Test("a failed connection and 408/429/5xx are retried up to the attempt limit, with growing backoff",
          arguments: [StubReply.unreachable, .status(408), .status(429), .status(500),
                      .status(502), .status(503), .status(504)])
    func retryableFailures(reply: StubReply) async throws {
        let stub = StubTransport()
        let clock = ManualClock()
        stub.stub(.get, "/users/u_1", with: reply)
        let policy = RetryPolicy(backoff: .exponential(base: 1, multiplier: 2, max: 10), maxAttempts: 4)

        _ = try? await retrying(stub, clock, policy: policy).send(try request(.get))

        #expect(stub.count(.get, "/users/u_1") == 4)
        #expect(clock.requestedSleeps == [1, 2, 4])
    }

    @Test("other statuses and errors are returned at once, a timeout too: the timeout is the wait agreed to",
          arguments: [
        StubReply.status(400), .status(401), .status(404), .status(409), .status(412), .status(501),
        .failing(RiderError.malformedResponse("x")), .failing(RiderError.timedOut),
    ])
    func nonRetryable(reply: StubReply) async throws {
        let stub = StubTransport()
        let clock = ManualClock()
        stub.stub(.get, "/users/u_1", with: reply)

        _ = try? await retrying(stub, clock).send(try request(.get))

        #expect(stub.count(.get, "/users/u_1") == 1)
        #expect(clock.requestedSleeps.isEmpty)
    }

    @Test("POST and PATCH without If-Match are never retried; PATCH with If-Match and PUT/DELETE are")
    func onlyRepeatableRequestsAreRetried() async throws {
        for (method, ifMatch, attempts) in [(HTTPMethod.post, nil, 1), (.patch, nil, 1), (.patch, "\"v1\"", 3),
                                            (.put, nil, 3), (.delete, nil, 3), (.head, nil, 3)] as [(HTTPMethod, String?, Int)] {
            let stub = StubTransport()
            stub.stub(method, "/users/u_1", with: .status(503))
            _ = try await retrying(stub, ManualClock()).send(try request(method, ifMatch: ifMatch))
            #expect(stub.count(method, "/users/u_1") == attempts, "\(method) If-Match: \(ifMatch ?? "none")")
        }
    }

    @Test("a Retry-After longer than the policy allows is not waited for: the 429 comes back")
    func retryAfterBeyondMaximum() async throws {
        let stub = StubTransport()
        let clock = ManualClock()
        stub.stub(.get, "/users/u_1", with: .status(429, headers: ["Retry-After": "3600"]))

        let response = try await retrying(stub, clock).send(try request(.get))

        #expect(response.status == 429)
        #expect(stub.count(.get, "/users/u_1") == 1)
        #expect(clock.requestedSleeps.isEmpty)
    }

    @Test("cancellation during a backoff stops at once with CancellationError and sends nothing more")
    func cancellationDuringBackoff() async throws {
        let stub = StubTransport()
        stub.stub(.get, "/users/u_1", with: .status(503, headers: ["Retry-After": "30"]))
        // A real clock: the backoff is a real 30 s sleep, which cancellation must cut short.
        let transport = RequestPipeline(transport: stub, middlewares: [RetryMiddleware(clock: RealTimeClock())])
            .transport(for: RequestOptions(retryPolicy: .standard))
        let request = try request(.get)

        let task = Task { try await transport.send(request) }
        try await stub.waitForRequests(.get, "/users/u_1", count: 1)
        task.cancel()
        let result = await task.result

        #expect(throws: CancellationError.self) { try result.get() }
        #expect(stub.count(.get, "/users/u_1") == 1)
    }

    @Test("login (POST to the token endpoint) is never retried, whatever the answer")
    func tokenEndpointIsNeverRetried() async throws {
        let harness = try UseCaseHarness()
        harness.stubTokenEndpoint(with: .status(503))

        let refusal = await #expect(throws: RiderError.self) { try await harness.login(Fixtures.credentials) }
        #expect(refusal?.code == .server, "\(String(describing: refusal))")
        #expect(harness.transport.count(.post, "/auth/token") == 1)
        #expect(harness.clock.requestedSleeps.isEmpty)
    }
}

/// The device clock with real sleeping, for the one test that needs a real, cancellable wait.
private struct RealTimeClock: RiderDomain.Clock {
    var now: Date { Date() }
}
