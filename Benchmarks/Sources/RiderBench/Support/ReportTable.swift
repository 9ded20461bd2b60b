import Foundation

/// Renders scenario reports as the Markdown table that docs/performance.md holds.
enum ReportTable {
    static func markdown(_ reports: [ScenarioReport]) -> String {
        var lines = [
            "| scenario | RiderKit | floor | RiderKit ÷ floor |",
            "|---|---:|---:|---:|",
        ]
        for report in reports {
            lines.append("| **\(report.scenario)** — floor: \(report.floorDescription) | | | |")
            for row in report.rows {
                let floor = row.floor.map { format($0, row.unit) } ?? "–"
                let ratio = row.ratio.map { String(format: "%.2f", $0) } ?? "–"
                lines.append("| \(row.name) | \(format(row.riderKit, row.unit)) | \(floor) | \(ratio) |")
            }
            lines.append("| peak memory of the process | \(megabytes(report.peakResidentBytes)) | | |")
        }
        return lines.joined(separator: "\n")
    }

    static func checks(_ reports: [ScenarioReport]) -> String {
        reports.flatMap(\.checks).map { check in
            "\(check.passed ? "PASS" : "FAIL")  \(check.name): \(check.detail)"
        }.joined(separator: "\n")
    }

    static func format(_ value: Double, _ unit: String) -> String {
        switch unit {
        case "req/s": return String(format: "%.0f req/s", value)
        case "ms": return value >= 100 ? String(format: "%.0f ms", value) : String(format: "%.3f ms", value)
        case "": return String(format: "%.0f", value)
        default: return String(format: "%.2f %@", value, unit)
        }
    }

    static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MiB", Double(bytes) / 1_048_576)
    }
}
