import Foundation

/// `rider users list --all` over many riders next to one page: the walk holds one page at a
/// time, so its peak memory must be that of a single page, whatever the number of riders.
struct UserListing {
    var riders = 10_000
    var runs = 3

    static let smoke = UserListing(riders: 2_000, runs: 1)

    func run() async throws -> ScenarioReport {
        var report = ScenarioReport(
            scenario: "`rider users list --all` over \(riders + 1) riders (its own rider-server), \(runs) runs",
            floorDescription: "`rider users list --limit 100`, one page, in the same environment")
        let server = try ServerProcess(seedUsers: riders)
        defer { server.stop() }
        let rider = try Binaries.url("rider")
        let sandbox = CLIEnvironment(server: server, name: "users")
        defer { sandbox.remove() }
        let environment = sandbox.environment(home: "home", vault: CLIEnvironment.keyringPresent ? "secret-service" : "file")
        try sandbox.login(rider, environment)

        var allPeak = 0, pagePeak = 0
        var allTime = Measurement(samples: []), pageTime = Measurement(samples: [])
        var failures: [String] = []
        for _ in 0..<runs {
            let page = try ChildProcess.run(rider, ["users", "list", "--limit", "100"], environment: environment)
            let all = try ChildProcess.run(rider, ["users", "list", "--all", "--limit", "100"], environment: environment)
            for (name, outcome) in [("one page", page), ("--all", all)] where outcome.status != 0 {
                failures.append("\(name) exited \(outcome.status)")
            }
            pagePeak = max(pagePeak, page.peakResidentBytes)
            allPeak = max(allPeak, all.peakResidentBytes)
            pageTime.samples.append(page.milliseconds)
            allTime.samples.append(all.milliseconds)
        }
        report.rows += [
            ReportRow(name: "peak memory of the `rider` process", riderKit: Double(allPeak) / 1_048_576,
                      floor: Double(pagePeak) / 1_048_576, unit: "MiB"),
            ReportRow(name: "wall time p50", riderKit: allTime.p50, floor: pageTime.p50, unit: "ms"),
        ]
        // Constant memory: the whole walk may not hold more than a few pages' worth more than one page.
        let slack = 16 * 1_048_576
        report.check("`users list --all` streams in constant memory", allPeak <= pagePeak + slack,
                     String(format: "%.1f MiB for every rider vs %.1f MiB for one page",
                            Double(allPeak) / 1_048_576, Double(pagePeak) / 1_048_576))
        report.check("every `rider users list` exited 0", failures.isEmpty,
                     failures.isEmpty ? "\(runs * 2) runs" : failures.joined(separator: "; "))
        return report
    }
}
