import Foundation
import RiderKit

/// An authorized `GET /auth/me` through the whole stack (CurrentUser → APIClient → session engine
/// → redirect guard → URLSessionTransport, decoding the user) next to the same request sent
/// with the bare transport and a fixed `Authorization` header.
struct RequestOverhead {
    var sequential = 2_000
    var concurrent = 4_000
    var tasks = 32
    var rounds = 3

    static let smoke = RequestOverhead(sequential: 40, concurrent: 64, tasks: 32, rounds: 1)

    func run(on server: ServerProcess) async throws -> ScenarioReport {
        var report = ScenarioReport(
            scenario: "Request overhead: authorized GET /auth/me",
            floorDescription: "the same request through the bare URLSessionTransport with a fixed Authorization header")
        let api = try server.api
        let kit = try await server.signedInRiderKit()
        guard let token = try await kit.sessions.currentSession()?.accessToken else {
            throw BenchFailure("no session after login")
        }
        let bare = URLSessionTransport()
        let me = api.baseURL.appendingPathComponent("auth/me")
        let request = HTTPRequest(method: .get, url: me,
                                  headers: ["Authorization": "Bearer \(token)", "Accept": "application/json"])
        let floor: @Sendable () async throws -> Void = {
            let response = try await bare.send(request)
            guard response.status == 200 else { throw BenchFailure("bare GET /auth/me answered \(response.status)") }
        }
        let wholeStack: @Sendable () async throws -> Void = { _ = try await kit.currentUser(policy: .networkOnly) }

        // The same with the production cache: every answer is also written to SQLite.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rider-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let sqlite = SQLiteUserCache(configuration: .init(file: folder.appendingPathComponent("users.sqlite")))
        let cachedKit = try await server.signedInRiderKit(cache: sqlite)
        let wholeStackWithSQLite: @Sendable () async throws -> Void = {
            _ = try await cachedKit.currentUser(policy: .networkOnly)
        }

        // What loopback and the server allow with no client library at all.
        let raw = try RawHTTPConnection(url: me, headers: [("Authorization", "Bearer \(token)"), ("Accept", "application/json")])
        let rawCall = { guard try raw.roundTrip() == 200 else { throw BenchFailure("raw GET /auth/me failed") } }

        // Warm every path (connections, caches, the allocator) outside the timing.
        for _ in 0..<min(200, sequential) {
            try await floor(); try await wholeStack(); try await wholeStackWithSQLite(); try rawCall()
        }

        var floorSequential = Load.Result(), kitSequential = Load.Result(), sqliteSequential = Load.Result()
        var floorConcurrent = Load.Result(), kitConcurrent = Load.Result()
        var rawSequential = Load.Result()
        // Interleaved rounds, so drift on a shared machine hits both columns alike.
        for _ in 0..<rounds {
            floorSequential.merge(await Load.run(requests: sequential, concurrency: 1, floor))
            kitSequential.merge(await Load.run(requests: sequential, concurrency: 1, wholeStack))
            sqliteSequential.merge(await Load.run(requests: sequential, concurrency: 1, wholeStackWithSQLite))
            floorConcurrent.merge(await Load.run(requests: concurrent, concurrency: tasks, floor))
            kitConcurrent.merge(await Load.run(requests: concurrent, concurrency: tasks, wholeStack))
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
            ReportRow(name: "sequential throughput", riderKit: kitSequential.requestsPerSecond,
                      floor: floorSequential.requestsPerSecond, unit: "req/s", better: .higher),
            ReportRow(name: "sequential p50", riderKit: kitSequential.latencies.p50, floor: floorSequential.latencies.p50, unit: "ms"),
            ReportRow(name: "sequential p99", riderKit: kitSequential.latencies.p99, floor: floorSequential.latencies.p99, unit: "ms"),
            ReportRow(name: "\(tasks) concurrent tasks: throughput", riderKit: kitConcurrent.requestsPerSecond,
                      floor: floorConcurrent.requestsPerSecond, unit: "req/s", better: .higher),
            ReportRow(name: "\(tasks) concurrent tasks: p50", riderKit: kitConcurrent.latencies.p50,
                      floor: floorConcurrent.latencies.p50, unit: "ms"),
            ReportRow(name: "\(tasks) concurrent tasks: p99", riderKit: kitConcurrent.latencies.p99,
                      floor: floorConcurrent.latencies.p99, unit: "ms"),
            ReportRow(name: "sequential throughput, the answer also written to the SQLite cache",
                      riderKit: sqliteSequential.requestsPerSecond, floor: floorSequential.requestsPerSecond,
                      unit: "req/s", better: .higher),
            ReportRow(name: "the bare URLSessionTransport (left) vs a raw-socket HTTP/1.1 client (right), sequential",
                      riderKit: floorSequential.requestsPerSecond, floor: rawSequential.requestsPerSecond,
                      unit: "req/s", better: .higher),
        ]
        let failures = [floorSequential, kitSequential, sqliteSequential, floorConcurrent, kitConcurrent]
            .reduce(0) { $0 + $1.failures }
        report.check("every request succeeded", failures == 0, "\(failures) failed")
        return report
    }
}
