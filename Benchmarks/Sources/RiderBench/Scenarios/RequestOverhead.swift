import Foundation
import RiderKit
import RiderURLSession

/// An authorized `GET /auth/me` through the whole stack (CurrentUser → APIClient → session engine
/// → redirect guard → the default AsyncHTTPClientTransport, decoding the user) next to the same
/// request sent with the bare transport and a fixed `Authorization` header. The same pair over
/// URLSessionTransport, and both bare transports next to a raw-socket client, show why
/// AsyncHTTPClient is the default: it answers more requests per second than URLSession, one
/// at a time and with concurrent tasks alike.
struct RequestOverhead {
    var sequential = 600
    var concurrent = 1_200
    var tasks = 32
    var rounds = 10

    static let smoke = RequestOverhead(sequential: 40, concurrent: 64, tasks: 32, rounds: 1)

    /// One HTTP client measured bare and under the whole stack.
    private struct Pair {
        let bare: @Sendable () async throws -> Void
        let wholeStack: @Sendable () async throws -> Void
        var bareSequential = Load.Result(), kitSequential = Load.Result()
        var bareConcurrent = Load.Result(), kitConcurrent = Load.Result()

        var failures: Int {
            [bareSequential, kitSequential, bareConcurrent, kitConcurrent].reduce(0) { $0 + $1.failures }
        }

        mutating func measure(_ shape: RequestOverhead) async {
            bareSequential.merge(await Load.run(requests: shape.sequential, concurrency: 1, bare))
            kitSequential.merge(await Load.run(requests: shape.sequential, concurrency: 1, wholeStack))
            bareConcurrent.merge(await Load.run(requests: shape.concurrent, concurrency: shape.tasks, bare))
            kitConcurrent.merge(await Load.run(requests: shape.concurrent, concurrency: shape.tasks, wholeStack))
        }
    }

    func run(on server: ServerProcess) async throws -> ScenarioReport {
        var report = ScenarioReport(
            scenario: "Request overhead: authorized GET /auth/me",
            floorDescription: "the same request through the bare transport with a fixed Authorization header")
        let me = try server.api.baseURL.appendingPathComponent("auth/me")

        func pair(_ make: () -> any HTTPTransport) async throws -> (Pair, Session) {
            let kit = try await server.signedInRiderKit(transport: make())
            guard let session = try await kit.sessions.currentSession() else {
                throw BenchFailure("no session after login")
            }
            let token = session.accessToken
            let bare = make()
            let request = HTTPRequest(method: .get, url: me,
                                      headers: ["Authorization": "Bearer \(token)", "Accept": "application/json"])
            return (Pair(bare: {
                let response = try await bare.send(request)
                guard response.status == 200 else { throw BenchFailure("bare GET /auth/me answered \(response.status)") }
            }, wholeStack: { _ = try await kit.currentUser(policy: .networkOnly) }), session)
        }
        let asyncHTTPClient = try await pair { AsyncHTTPClientTransport(configuration: .init(timeout: 60, proxies: .none)) }
        var nio = asyncHTTPClient.0, curl = try await pair { URLSessionTransport(configuration: .init(timeout: 60)) }.0
        let session = asyncHTTPClient.1, token = session.accessToken

        // The same with the production cache: every answer is also written to SQLite.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rider-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let sqlite = SQLiteUserCache(configuration: .init(file: folder.appendingPathComponent("users.sqlite")))
        let cachedKit = try await server.signedInRiderKit(cache: sqlite)
        let wholeStackWithSQLite: @Sendable () async throws -> Void = {
            _ = try await cachedKit.currentUser(policy: .networkOnly)
        }

        // RiderKit's own work per request, without the network: the whole stack over a transport
        // that answers at once with the server's real /auth/me response.
        let recorded = try await AsyncHTTPClientTransport(configuration: .init(timeout: 60, proxies: .none))
            .send(HTTPRequest(method: .get, url: me, headers: ["Authorization": "Bearer \(token)", "Accept": "application/json"]))
        let instant = InstantTransport(response: recorded)
        let instantKit = RiderKit(api: try server.api, transport: instant, vault: InMemoryTokenVault(),
                                  cache: InMemoryUserCache(), clock: SystemClock())
        try await instantKit.sessions.establish(session)
        let instantBare: @Sendable () async throws -> Void = {
            _ = try await instant.send(HTTPRequest(method: .get, url: me))
        }
        let instantWholeStack: @Sendable () async throws -> Void = { _ = try await instantKit.currentUser(policy: .networkOnly) }

        // What loopback and the server allow with no client library at all.
        let raw = try RawHTTPConnection(url: me, headers: [("Authorization", "Bearer \(token)"), ("Accept", "application/json")])
        let rawCall = { guard try raw.roundTrip() == 200 else { throw BenchFailure("raw GET /auth/me failed") } }

        // Warm every path (connections, caches, the allocator) outside the timing.
        for _ in 0..<min(200, sequential) {
            try await nio.bare(); try await nio.wholeStack(); try await curl.bare(); try await curl.wholeStack()
            try await wholeStackWithSQLite(); try rawCall(); try await instantBare(); try await instantWholeStack()
        }

        var sqliteSequential = Load.Result(), rawSequential = Load.Result()
        var instantBareRun = Load.Result(), instantKitRun = Load.Result()
        // Interleaved rounds, so drift on a shared machine hits every column alike.
        for _ in 0..<rounds {
            await nio.measure(self)
            await curl.measure(self)
            sqliteSequential.merge(await Load.run(requests: sequential, concurrency: 1, wholeStackWithSQLite))
            instantBareRun.merge(await Load.run(requests: sequential * 4, concurrency: 1, instantBare))
            instantKitRun.merge(await Load.run(requests: sequential * 4, concurrency: 1, instantWholeStack))
            var rawRound = Load.Result()
            let start = ContinuousClock.now
            for _ in 0..<sequential {
                let began = ContinuousClock.now
                try rawCall()
                rawRound.latencies.samples.append(Measurement.milliseconds(ContinuousClock.now - began))
            }
            rawRound.wallMilliseconds = Measurement.milliseconds(ContinuousClock.now - start)
            rawSequential.merge(rawRound)
        }
        await sqlite.close()

        report.rows += [
            ReportRow(name: "sequential throughput", riderKit: nio.kitSequential.requestsPerSecond,
                      floor: nio.bareSequential.requestsPerSecond, unit: "req/s", better: .higher),
            ReportRow(name: "sequential p50", riderKit: nio.kitSequential.latencies.p50,
                      floor: nio.bareSequential.latencies.p50, unit: "ms"),
            ReportRow(name: "sequential p99", riderKit: nio.kitSequential.latencies.p99,
                      floor: nio.bareSequential.latencies.p99, unit: "ms"),
            ReportRow(name: "\(tasks) concurrent tasks: throughput", riderKit: nio.kitConcurrent.requestsPerSecond,
                      floor: nio.bareConcurrent.requestsPerSecond, unit: "req/s", better: .higher),
            ReportRow(name: "\(tasks) concurrent tasks: p50", riderKit: nio.kitConcurrent.latencies.p50,
                      floor: nio.bareConcurrent.latencies.p50, unit: "ms"),
            ReportRow(name: "\(tasks) concurrent tasks: p99", riderKit: nio.kitConcurrent.latencies.p99,
                      floor: nio.bareConcurrent.latencies.p99, unit: "ms"),
            ReportRow(name: "sequential throughput, the answer also written to the SQLite cache",
                      riderKit: sqliteSequential.requestsPerSecond, floor: nio.bareSequential.requestsPerSecond,
                      unit: "req/s", better: .higher),
            ReportRow(name: "over URLSessionTransport: sequential throughput", riderKit: curl.kitSequential.requestsPerSecond,
                      floor: curl.bareSequential.requestsPerSecond, unit: "req/s", better: .higher),
            ReportRow(name: "over URLSessionTransport: \(tasks) concurrent tasks: throughput",
                      riderKit: curl.kitConcurrent.requestsPerSecond, floor: curl.bareConcurrent.requestsPerSecond,
                      unit: "req/s", better: .higher),
            ReportRow(name: "bare URLSessionTransport (left) vs bare AsyncHTTPClientTransport (right), sequential",
                      riderKit: curl.bareSequential.requestsPerSecond, floor: nio.bareSequential.requestsPerSecond,
                      unit: "req/s", better: .higher),
            ReportRow(name: "bare URLSessionTransport (left) vs bare AsyncHTTPClientTransport (right), \(tasks) tasks",
                      riderKit: curl.bareConcurrent.requestsPerSecond, floor: nio.bareConcurrent.requestsPerSecond,
                      unit: "req/s", better: .higher),
            ReportRow(name: "RiderKit's own work: whole stack over an instant transport (right: the transport alone), p50",
                      riderKit: instantKitRun.latencies.p50, floor: instantBareRun.latencies.p50, unit: "ms"),
            ReportRow(name: "bare AsyncHTTPClientTransport (left) vs a raw-socket HTTP/1.1 client (right), sequential",
                      riderKit: nio.bareSequential.requestsPerSecond, floor: rawSequential.requestsPerSecond,
                      unit: "req/s", better: .higher),
        ]
        let failures = nio.failures + curl.failures + sqliteSequential.failures + instantKitRun.failures
        report.check("every request succeeded", failures == 0, "\(failures) failed")
        // The default must stay the faster client, since speed is why it is the default: a
        // change that lets URLSession overtake it fails here. Checked on the full run only, as
        // tiny smoke sizes measure start-up rather than throughput.
        if sequential * rounds >= 1_000 {
            report.check("the default HTTP client (AsyncHTTPClient) is faster than URLSession, sequential and concurrent",
                         nio.bareSequential.requestsPerSecond > curl.bareSequential.requestsPerSecond
                             && nio.bareConcurrent.requestsPerSecond > curl.bareConcurrent.requestsPerSecond,
                         String(format: "%.0f vs %.0f req/s sequential, %.0f vs %.0f with %d tasks",
                                nio.bareSequential.requestsPerSecond, curl.bareSequential.requestsPerSecond,
                                nio.bareConcurrent.requestsPerSecond, curl.bareConcurrent.requestsPerSecond, tasks))
        }
        return report
    }
}
