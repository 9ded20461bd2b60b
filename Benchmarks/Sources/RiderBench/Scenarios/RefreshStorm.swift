import Foundation
import RiderKit

/// N concurrent authorized requests on an access token the server has just expired: every one
/// gets a 401, exactly one refresh may reach the server, and all N must succeed. The floor is
/// the same burst through the bare transport with a token that still works.
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
        }

        report.rows += [
            ReportRow(name: "wall time until all \(requests) finished (median of \(rounds))", riderKit: stormWalls.p50,
                      floor: floorWalls.p50, unit: "ms"),
            ReportRow(name: "resident memory before the storm", riderKit: Double(residentBefore) / 1_048_576,
                      floor: nil, unit: "MiB"),
        ]
        return report
    }
}
