import Foundation
import RiderKit

/// N concurrent authorized requests on an access token the server has just expired: every one
/// gets a 401, exactly one refresh may reach the server, and all N must succeed. The floor is
/// the same burst through the bare transport with a token that still works. Each request is sent
/// twice (the 401, then the retry), so 2× the floor is the least this case can cost.
///
/// Then the case the client can see coming: its copy of the session says the token has expired,
/// so the requests wait for the one refresh and each is sent once — 1× plus a refresh is the floor.
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

        report.rows += [
            ReportRow(name: "wall time until all \(requests) finished (median of \(rounds)): the server revoked a token the client believed valid (each request sent twice; 2× is the floor)",
                      riderKit: stormWalls.p50, floor: floorWalls.p50, unit: "ms"),
            ReportRow(name: "the same when the client knows the token expired (one refresh first, each request sent once)",
                      riderKit: knownWalls.p50, floor: floorWalls.p50, unit: "ms"),
            ReportRow(name: "resident memory before the storm", riderKit: Double(residentBefore) / 1_048_576,
                      floor: nil, unit: "MiB"),
        ]
        return report
    }
}
