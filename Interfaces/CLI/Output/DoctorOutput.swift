import Foundation

/// What `rider doctor` prints: every check in the order taken, and whether anything is broken.
struct DoctorOutput: Encodable, Sendable {
    let checks: [DoctorCheck]
    /// `true` when no check failed: the exit status is then 0.
    let healthy: Bool

    init(_ checks: [DoctorCheck]) {
        self.checks = checks
        healthy = !checks.contains { $0.status == .fail }
    }

    /// One line per check (`ok   name  detail`), its fix on the next, then a summary. Every
    /// value is made terminal-safe here: details quote the server, paths and the environment.
    var lines: [String] {
        let width = checks.map(\.name.count).max() ?? 0
        var lines: [String] = []
        for check in checks {
            let status = check.status.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0)
            let name = check.name.padding(toLength: width, withPad: " ", startingAt: 0)
            lines.append("\(status) \(name)  \(check.detail.terminalSafe)")
            if let fix = check.fix {
                lines.append(String(repeating: " ", count: width + 8) + "fix: \(fix.terminalSafe)")
            }
        }
        let failures = checks.count { $0.status == .fail }
        let notes = checks.count { $0.status == .note }
        lines.append(failures == 0
            ? "Nothing is broken\(notes == 0 ? "." : " (\(notes) \(notes == 1 ? "note" : "notes") above).")"
            : "\(failures) \(failures == 1 ? "check fails" : "checks fail"); the fix is under each.")
        return lines
    }
}
