import Foundation
import RiderKit

/// N concurrent authorized requests on an access token the server has just expired: every one
/// gets a 401, exactly one refresh may reach the server, and all N must succeed. The floor is
/// the same burst through the bare transport with a token that still works. Each request is sent
/// twice (the 401, then the retry), so 2× the floor is the least this case can cost.
///
/// Then the case the client can see coming: its copy of the session says the token has expired,
/// so the requests wait for the one refresh and each is sent once — 1× plus a refresh is the floor.
///
/// Last, a token inside the refresh leeway but still valid: requests go on with it while one
/// refresh runs beside them (``refreshAhead(on:report:)``), so their latency is that of requests
/// outside the leeway.
struct RefreshStorm {
    var requests = 1_000
    var rounds = 3

    /// The smoke run keeps the full 1,000 waiters: the count is the claim being checked, and it
    /// takes a second or two.
    static let smoke = RefreshStorm(requests: 1_000, rounds: 1)

    func run(on server: ServerProcess) async throws -> ScenarioReport {
        var report = ScenarioReport(
            scenario: "Refresh storm: \(requests) concurrent requests on an expired access token",
            floorDescription: "the same burst through the bare transport with a valid token (no refresh)")
        let api = try server.api
        let kit = try await server.signedInRiderKit()
        let bare = AsyncHTTPClientTransport(configuration: .init(timeout: 60, proxies: .none))
        let me = api.baseURL.appendingPathComponent("auth/me")

        var stormWalls = Measurement(samples: []), floorWalls = Measurement(samples: [])
        var knownWalls = Measurement(samples: [])
        var residentBefore = Int.max
        for round in 1...rounds {
            guard let token = try await kit.sessions.currentSession()?.accessToken else {
                throw BenchFailure("no session")
            }
            let request = HTTPRequest(method: .get, url: me, headers: ["Authorization": "Bearer \(token)"])
            let burst = await Load.run(requests: requests, concurrency: requests) {
                guard try await bare.send(request).status == 200 else { throw BenchFailure("not 200") }
            }
            floorWalls.samples.append(burst.wallMilliseconds)

            try await server.expireAccessTokens()
            let grantsBefore = try await server.refreshGrants()
            residentBefore = min(residentBefore, ProcessMemory.residentBytes)
            let storm = await Load.run(requests: requests, concurrency: requests) {
                _ = try await kit.currentUser(policy: .networkOnly)
            }
            let refreshes = try await server.refreshGrants() - grantsBefore
            stormWalls.samples.append(storm.wallMilliseconds)
            report.check("round \(round): the server counted exactly 1 refresh for \(requests) waiters", refreshes == 1,
                         "\(refreshes) refresh grants")
            report.check("round \(round): all \(requests) requests succeeded", storm.failures == 0 && burst.failures == 0,
                         "\(storm.failures) failed in the storm, \(burst.failures) in the floor burst")

            // The client knows: the server expires the token and the session says so too.
            try await server.expireAccessTokens()
            guard var known = try await kit.sessions.currentSession() else { throw BenchFailure("no session") }
            known.expiresAt = Date(timeIntervalSinceNow: -60)
            try await kit.sessions.establish(known)
            let knownBefore = try await server.refreshGrants()
            let knownStorm = await Load.run(requests: requests, concurrency: requests) {
                _ = try await kit.currentUser(policy: .networkOnly)
            }
            knownWalls.samples.append(knownStorm.wallMilliseconds)
            let knownRefreshes = try await server.refreshGrants() - knownBefore
            report.check("round \(round), expiry known to the client: exactly 1 refresh, every request succeeded",
                         knownRefreshes == 1 && knownStorm.failures == 0,
                         "\(knownRefreshes) refresh grants, \(knownStorm.failures) failed")
        }

        let ahead = try await refreshAhead(on: server, report: &report)

        report.rows += [
            ReportRow(name: "wall time until all \(requests) finished (median of \(rounds)): the server revoked a token the client believed valid (each request sent twice; 2× is the floor)",
                      riderKit: stormWalls.p50, floor: floorWalls.p50, unit: "ms"),
            ReportRow(name: "the same when the client knows the token expired (one refresh first, each request sent once)",
                      riderKit: knownWalls.p50, floor: floorWalls.p50, unit: "ms"),
            ReportRow(name: "resident memory before the storm", riderKit: Double(residentBefore) / 1_048_576,
                      floor: nil, unit: "MiB"),
            ReportRow(name: "requests issued while a proactive refresh is under way (the token endpoint answering "
                        + "in \(Self.tokenEndpointMilliseconds) ms), "
                        + "p99 (right: the same load outside the leeway)",
                      riderKit: ahead.during.p99, floor: ahead.outside.p99, unit: "ms"),
            ReportRow(name: "the same, p50", riderKit: ahead.during.p50, floor: ahead.outside.p50, unit: "ms"),
        ]
        return report
    }

    /// How long the token endpoint takes to answer in the proactive-refresh part: a provider's
    /// refresh round trip, longer than a request to the API, as it is in real use.
    static let tokenEndpointMilliseconds = 200
    static var tokenEndpointDelay: Duration { .milliseconds(tokenEndpointMilliseconds) }
    static let aheadWorkers = 4

    /// Requests from 4 tasks for as long as the token endpoint takes, first with a token well
    /// outside the leeway (the floor), then, in each round, right after the session was moved 20 s
    /// before its expiry (inside any instance's point of the 60 s leeway): the first request
    /// starts the refresh beside it, and every request in that window is issued while it is
    /// under way. Waiting for the refresh would put its 200 ms into them.
    private func refreshAhead(on server: ServerProcess, report: inout ScenarioReport)
        async throws -> (during: Measurement, outside: Measurement) {
        let transport = SlowTokenEndpoint(
            base: AsyncHTTPClientTransport(configuration: .init(timeout: 60, proxies: .none)),
            delay: Self.tokenEndpointDelay)
        let kit = try await server.signedInRiderKit(transport: transport)
        var during = Measurement(samples: []), outside = Measurement(samples: [])
        for round in 1...max(rounds, 3) {
            outside.samples += try await window(kit).samples

            guard var known = try await kit.sessions.currentSession() else { throw BenchFailure("no session") }
            known.issuedAt = Date(timeIntervalSinceNow: -3_000)
            known.expiresAt = Date(timeIntervalSinceNow: 20)
            try await kit.sessions.establish(known)
            let grantsBefore = try await server.refreshGrants()
            during.samples += try await window(kit).samples
            await kit.sessions.finishRefreshing()
            let grants = try await server.refreshGrants() - grantsBefore
            let renewed = try await kit.sessions.currentSession()?.accessToken != known.accessToken
            report.check("round \(round), refresh ahead: exactly 1 refresh, and the session renewed", grants == 1 && renewed,
                         "\(grants) refresh grants, renewed: \(renewed)")
        }
        return (during, outside)
    }

    /// The latencies of every request issued by ``aheadWorkers`` tasks within one token-endpoint delay.
    private func window(_ kit: RiderKit) async throws -> Measurement {
        let end = ContinuousClock.now + Self.tokenEndpointDelay
        let samples = try await withThrowingTaskGroup(of: [Double].self) { group in
            for _ in 0..<Self.aheadWorkers {
                group.addTask {
                    var samples: [Double] = []
                    while ContinuousClock.now < end {
                        let began = ContinuousClock.now
                        _ = try await kit.currentUser(policy: .networkOnly)
                        samples.append(Measurement.milliseconds(ContinuousClock.now - began))
                    }
                    return samples
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        return Measurement(samples: samples)
    }
}

/// The bench's transport with a token endpoint that takes its time.
private struct SlowTokenEndpoint: HTTPTransport {
    let base: any HTTPTransport
    let delay: Duration

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        if request.method == .post, request.url.path.hasSuffix("/auth/token") { try await Task.sleep(for: delay) }
        return try await base.send(request)
    }
}
