import Foundation

/// One line of the printed table: RiderKit next to its floor.
struct ResultRow {
    let name: String
    let kit: Double
    let floor: Double
    let unit: String

    static func table(_ rows: [ResultRow], options: Options) -> String {
        var lines = [
            "| scenario (\(options.users) users, \(options.searches) searches, \(options.lookups) lookups) | RiderKit | raw sqlite3 | ratio |",
            "|---|---:|---:|---:|",
        ]
        for row in rows {
            let ratio = row.floor > 0 ? String(format: "%.2f×", row.kit / row.floor) : "-"
            lines.append("| \(row.name) | \(String(format: "%.3f", row.kit)) \(row.unit) | \(String(format: "%.3f", row.floor)) \(row.unit) | \(ratio) |")
        }
        return lines.joined(separator: "\n")
    }
}
