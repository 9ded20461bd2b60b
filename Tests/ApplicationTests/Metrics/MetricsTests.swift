import Foundation
import RiderApplication
import RiderDomain
import Synchronization
import Testing
import TestSupport

/// Keeps every event, in order, for a test to read.
private final class EventLog: MetricsRecorder {
    private let events = Mutex<[MetricEvent]>([])
    var recorded: [MetricEvent] { events.withLock { $0 } }
    func record(_ event: MetricEvent) { events.withLock { $0.append(event) } }
}

@Suite("Metrics: what an embedding program can count")
struct MetricsTests {
    /// The harness's stub and vault, wired with `metrics` the way the composition root wires it.
    private func client(_ harness: UseCaseHarness, _ metrics: EventLog) -> (APIClient, SessionEngine) {
        let transport = RequestPipeline(transport: harness.transport, middlewares: [MeasuringMiddleware(metrics: metrics)])
        let sessions = SessionEngine(configuration: harness.configuration, transport: transport, vault: harness.vault,
                                     clock: harness.clock, metrics: metrics)
        return (APIClient(configuration: harness.configuration, transport: transport, sessions: sessions,
                          random: { 0.5 }, metrics: metrics), sessions)
    }

    @Test("each attempt, each retry and the refresh are counted once, in the order they happened")
    func attemptsRetriesRefresh() async throws {
        let harness = try UseCaseHarness.signedIn()
        let metrics = EventLog()
        let (api, _) = client(harness, metrics)
        harness.stubTokenEndpoint(times: 1)
        let calls = Mutex(0)
        harness.transport.stub(.get, "/riders/me") { request in
            let call = calls.withLock { count in count += 1; return count }
            if request.bearerToken != "access-2" { return .problem(status: 401) }
            return call == 2 ? .status(503) : .successful(Fixtures.rider(), headers: ["ETag": "\"v1\""])
        }

        _ = try await api.send(API.myRider)

        #expect(metrics.recorded == [
            .request(method: .get, outcome: .status(401)),
            .request(method: .post, outcome: .status(200)),
            .refresh(.renewed),
            .request(method: .get, outcome: .status(503)),
            .retry(method: .get),
            .request(method: .get, outcome: .status(200)),
        ])
    }

    @Test("a rejected refresh is counted as rejected, an unreachable token endpoint as failed")
    func refreshOutcomes() async throws {
        for (reply, outcome) in [(StubReply.tokenError("invalid_grant"), MetricEvent.RefreshOutcome.rejected),
                                 (.status(503), .failed)] {
            let harness = try UseCaseHarness.signedIn()
            let metrics = EventLog()
            let (_, sessions) = client(harness, metrics)
            harness.stubTokenEndpoint(with: reply)

            _ = try? await sessions.refresh()

            #expect(metrics.recorded.contains(.refresh(outcome)), "\(metrics.recorded)")
            #expect(metrics.recorded.filter { if case .refresh = $0 { true } else { false } }.count == 1)
        }
    }

    @Test("a failed attempt is counted as failed or timed out; a cancelled one is not counted")
    func failedAttempts() async throws {
        let harness = try UseCaseHarness()
        let metrics = EventLog()
        let transport = RequestPipeline(transport: harness.transport, middlewares: [MeasuringMiddleware(metrics: metrics)])
        let url = try #require(URL(string: "https://api.example.test/sports"))
        harness.transport.stub(.get, "/sports", inOrder: [.failure(RiderError.serverUnreachable(reason: "down")),
                                                           .failure(RiderError.timedOut)])

        _ = try? await transport.send(HTTPRequest(method: .get, url: url))
        _ = try? await transport.send(HTTPRequest(method: .get, url: url))

        #expect(metrics.recorded == [.request(method: .get, outcome: .failed),
                                     .request(method: .get, outcome: .timedOut)])
    }

    @Test("a cache lookup by id is counted as a hit or a miss")
    func cacheLookups() async throws {
        let harness = try UseCaseHarness()
        let metrics = EventLog()
        let cache = MeasuringUserCache(base: harness.cache, metrics: metrics)
        try await cache.store([User(id: "u_000001", email: "ada@example.com", displayName: "Ada")], at: Fixtures.epoch)

        _ = try await cache.user(id: "u_000001")
        _ = try await cache.user(id: "u_000002")

        #expect(metrics.recorded == [.cacheLookup(hit: true), .cacheLookup(hit: false)])
    }
}
