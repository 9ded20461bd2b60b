/// One line of the table: RiderKit next to its floor, measured in the same run.
struct ReportRow: Codable, Sendable {
    enum Better: String, Codable, Sendable {
        case lower, higher
    }

    let name: String
    let riderKit: Double
    /// `nil` when there is nothing to compare with (the keyring, a count).
    let floor: Double?
    let unit: String
    var better: Better = .lower

    /// RiderKit ÷ floor, so a throughput ratio of 0.95 or a latency ratio of 1.05 both read "5 % slower".
    var ratio: Double? {
        guard let floor, floor > 0 else { return nil }
        return riderKit / floor
    }
}

/// A pass/fail claim the run checks (exactly one refresh, every request succeeded).
struct ReportCheck: Codable, Sendable {
    let name: String
    let passed: Bool
    let detail: String
}

/// What one scenario measured; a child process prints it as JSON for the driver.
struct ScenarioReport: Codable, Sendable {
    let scenario: String
    /// What RiderKit's column and the floor column each are.
    let floorDescription: String
    var rows: [ReportRow] = []
    var checks: [ReportCheck] = []
    /// Highest resident set size of the process that ran the scenario.
    var peakResidentBytes: Int = 0

    mutating func check(_ name: String, _ passed: Bool, _ detail: String) {
        checks.append(ReportCheck(name: name, passed: passed, detail: detail))
    }
}
