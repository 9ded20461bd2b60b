import Foundation

/// One finding of `rider doctor`: what was checked, how it stands, and what to do about it.
struct DoctorCheck: Encodable, Sendable, Equatable {
    /// How a check stands. A note is something to know (a fallback is serving, a setting is
    /// unusual) with its fix; only a failure makes `rider doctor` exit 1.
    enum Status: String, Encodable, Sendable {
        case ok, note, fail
    }

    /// A short, stable name scripts can select on (`dbus`, `vault-folder`, `clock`, …).
    let name: String
    let status: Status
    /// What was found, in a sentence; text from the server or the files is quoted as it came.
    let detail: String
    /// What to run or change, for a note or a failure; `null` when there is nothing to do.
    @Nullable var fix: String?

    static func ok(_ name: String, _ detail: String) -> DoctorCheck {
        DoctorCheck(name: name, status: .ok, detail: detail, fix: nil)
    }

    static func note(_ name: String, _ detail: String, fix: String? = nil) -> DoctorCheck {
        DoctorCheck(name: name, status: .note, detail: detail, fix: fix)
    }

    static func fail(_ name: String, _ detail: String, fix: String?) -> DoctorCheck {
        DoctorCheck(name: name, status: .fail, detail: detail, fix: fix)
    }

    static func == (lhs: DoctorCheck, rhs: DoctorCheck) -> Bool {
        (lhs.name, lhs.status, lhs.detail, lhs.fix) == (rhs.name, rhs.status, rhs.detail, rhs.fix)
    }
}

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
