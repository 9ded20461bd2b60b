import Foundation

/// A target #19 set for a row of the table, judged on one run: met, or missed by how much and
/// why, so `make bench` itself says it, not only docs/performance.md. A missed target does not
/// fail the run: the table is the measurement, the target a promise that may not be kept yet.
struct BenchTarget {
    enum Measure {
        /// RiderKit ÷ floor.
        case ratio
        /// RiderKit's own figure, in the row's unit.
        case value
        /// RiderKit − floor, in the row's unit.
        case difference
    }

    let claim: String
    /// The start of the scenario's title and of the row's name.
    let scenario: String
    let row: String
    let measure: Measure
    let limit: Double
    let higherIsBetter: Bool
    /// Why the target is missed when it is, with where the profile is.
    let whyMissed: String

    private static let profiles = "docs/performance.md, \"Where a person waits (#19)\""
    private static let dpopWhy = "one ES256 signature (client) and one verification (server) per request on the same "
        + "cores; the DPoP table's \"the most any DPoP client and server could reach here\" rows are below 0.93 "
        + "themselves (docs/performance.md, \"DPoP-bound vs bearer (#31, 2026-11-27, fifth session)\")"

    static let all: [BenchTarget] = [
        BenchTarget(claim: "cache open + first hit ≤ 2× the raw open", scenario: "User cache", row: "open + first hit p50",
                    measure: .ratio, limit: 2, higherIsBetter: false,
                    whyMissed: "GRDB's connection set-up and the first lookup (\(profiles), Cache open)"),
        BenchTarget(claim: "cache hit by id ≤ 1.5× the raw read + bump + count", scenario: "User cache",
                    row: "cache hit by id p50 vs the raw read", measure: .ratio, limit: 1.5, higherIsBetter: false,
                    whyMissed: "the actor hop and the record's decoding (\(profiles), Reads do not write)"),
        BenchTarget(claim: "cache hit by id ≤ 1.5× the same bare SELECT (#34)", scenario: "User cache",
                    row: "cache hit by id p50 (a read", measure: .ratio, limit: 1.5, higherIsBetter: false,
                    whyMissed: "the actor hop, GRDB's queue and building the user from the row (docs/performance.md, "
                        + "\"The cache's hit and close (#34 item 3)\")"),
        BenchTarget(claim: "the cache's close ≤ its open + first hit (#34)", scenario: "User cache",
                    row: "the close p50 vs the open", measure: .ratio, limit: 1, higherIsBetter: false,
                    whyMissed: "the hit's recency written at close (docs/performance.md, \"The cache's hit and close (#34 item 3)\")"),
        BenchTarget(claim: "GetUser cache-first ≤ 3× a plain SELECT", scenario: "User cache", row: "GetUser (cache-first",
                    measure: .ratio, limit: 3, higherIsBetter: false,
                    whyMissed: "the actor hop and the record's decoding (\(profiles), Reads do not write)"),
        BenchTarget(claim: "FTS prefix search p50 ≤ 1.2× raw", scenario: "User cache", row: "FTS prefix search p50",
                    measure: .ratio, limit: 1.2, higherIsBetter: false,
                    whyMissed: "the count and page statements and decoding (\(profiles), Search)"),
        BenchTarget(claim: "whole stack with cache writes ≥ 0.85 of the bare transport", scenario: "Request overhead",
                    row: "sequential throughput, the answer also written", measure: .ratio, limit: 0.85, higherIsBetter: true,
                    whyMissed: "the batch writes (\(profiles), Writes behind)"),
        BenchTarget(claim: "requests ≥ 0.95 of the bare transport, sequential", scenario: "Request overhead",
                    row: "sequential throughput|", measure: .ratio, limit: 0.95, higherIsBetter: true,
                    whyMissed: "RiderKit's own work per request, paid with cold caches after each wake-up: no extra "
                        + "thread hop (perf stat and perf record of each path alone: docs/performance.md, "
                        + "\"The request path (#34 item 3)\")"),
        BenchTarget(claim: "requests ≥ 0.95 of the bare transport, 32 tasks", scenario: "Request overhead",
                    row: "32 concurrent tasks: throughput", measure: .ratio, limit: 0.95, higherIsBetter: true,
                    whyMissed: "RiderKit's own work per request on the 2 cores the server shares (docs/performance.md, "
                        + "\"The request path (#34 item 3)\")"),
        BenchTarget(claim: "storm ≤ 1.5× the valid-token burst when the client knows the token expired",
                    scenario: "Refresh storm", row: "the same when the client knows", measure: .ratio, limit: 1.5,
                    higherIsBetter: false, whyMissed: "the per-request cost above, on 1,000 requests (\(profiles), Storms)"),
        BenchTarget(claim: "requests during a proactive refresh: p99 ≤ 1.2× outside it", scenario: "Refresh storm",
                    row: "requests issued while a proactive refresh", measure: .ratio, limit: 1.2, higherIsBetter: false,
                    whyMissed: "requests waiting for the refresh (docs/session.md, Who waits on what)"),
        BenchTarget(claim: "`rider --help` ≤ 5 ms p50", scenario: "CLI start", row: "`rider --help` p50 (static",
                    measure: .value, limit: 5, higherIsBetter: false,
                    whyMissed: "the dynamic loader and the Swift runtime's conformance scans over every module linked "
                        + "into the one executable (perf: \(profiles), CLI start)"),
        BenchTarget(claim: "`rider whoami` from the cache, keyring ≤ 15 ms p50", scenario: "CLI start",
                    row: "`rider whoami` from the cache, Secret Service vault p50", measure: .value, limit: 15,
                    higherIsBetter: false,
                    whyMissed: "rider-core's start: page faults mapping it in, the loader, the Swift runtime's "
                        + "type lookups; the keyring read itself is five D-Bus round trips, without a key exchange "
                        + "since #34 (perf: docs/performance.md, \"The keyring read without a key exchange (#34)\")"),
        BenchTarget(claim: "a DPoP proof ≤ 1.5× a bare ES256 signature", scenario: "DPoP", row: "DPoP proof",
                    measure: .ratio, limit: 1.5, higherIsBetter: false,
                    whyMissed: "jwt-kit's key collection and JSON encoding of the header and claims around the one signature"),
        BenchTarget(claim: "DPoP-bound requests ≥ 0.93 of bearer ones, sequential", scenario: "DPoP",
                    row: "whole stack against rider-server, DPoP-bound session (right: bearer), sequential", measure: .ratio, limit: 0.93,
                    higherIsBetter: true, whyMissed: dpopWhy),
        BenchTarget(claim: "DPoP-bound requests ≥ 0.93 of bearer ones, 32 tasks", scenario: "DPoP",
                    row: "whole stack against rider-server, DPoP-bound session (right: bearer), 32", measure: .ratio, limit: 0.93,
                    higherIsBetter: true, whyMissed: dpopWhy),
        BenchTarget(claim: "`rider whoami` from the cache with a DPoP-bound session ≤ 1 ms over a bearer one (#31)",
                    scenario: "CLI start", row: "`rider whoami` from the cache, encrypted-file vault, unlocked once (kernel keyring), p50: DPoP",
                    measure: .difference, limit: 1, higherIsBetter: false,
                    whyMissed: "the session's P-256 key read from the vault and made a signing key in every process"),
        BenchTarget(claim: "`rider whoami` from the cache, encrypted file after the first unlock ≤ 20 ms p50",
                    scenario: "CLI start", row: "`rider whoami` from the cache, encrypted-file vault, unlocked once",
                    measure: .value, limit: 20, higherIsBetter: false,
                    whyMissed: "the process start (perf: \(profiles), CLI start)"),
    ]

    /// One line for this target, or `nil` when the run has no such row (a scenario left out).
    func judge(_ reports: [ScenarioReport]) -> String? {
        // A row name ending in "|" must match exactly (several rows start alike).
        let exact = row.hasSuffix("|")
        let name = exact ? String(row.dropLast()) : row
        guard let found = reports.first(where: { $0.scenario.hasPrefix(scenario) })?.rows
            .first(where: { exact ? $0.name == name : $0.name.hasPrefix(name) }) else { return nil }
        let measured: Double
        switch measure {
        case .ratio:
            guard let ratio = found.ratio else { return nil }
            measured = ratio
        case .value:
            measured = found.riderKit
        case .difference:
            guard let floor = found.floor else { return nil }
            measured = found.riderKit - floor
        }
        let shown = switch measure {
        case .ratio: String(format: "%.2f×", measured)
        case .value: ReportTable.format(measured, found.unit)
        case .difference: (measured < 0 ? "−" : "+") + ReportTable.format(abs(measured), found.unit)
        }
        let met = higherIsBetter ? measured >= limit : measured <= limit
        if met { return "MET     \(claim): \(shown)" }
        let by = switch measure {
        case .ratio: String(format: "by %.2f", abs(measured - limit))
        case .value: String(format: "%.1f× the target", measured / limit)
        case .difference: "by " + ReportTable.format(measured - limit, found.unit)
        }
        return "MISSED  \(claim): \(shown), \(by); why: \(whyMissed)"
    }
}
