import Foundation

/// How human-readable output spells dates, durations and key–value blocks.
enum HumanFormat {
    /// `2026-11-23 14:05:00 +0000`: UTC, unambiguous, sortable.
    static func date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        return formatter.string(from: date)
    }

    /// A coarse duration such as `59 s`, `14 min 20 s`, `2 h 5 min` or `3 d 4 h`.
    static func duration(_ interval: TimeInterval) -> String {
        let seconds = Int(max(0, interval).rounded())
        let (days, hours, minutes) = (seconds / 86_400, seconds % 86_400 / 3_600, seconds % 3_600 / 60)
        if days > 0 { return hours > 0 ? "\(days) d \(hours) h" : "\(days) d" }
        if hours > 0 { return minutes > 0 ? "\(hours) h \(minutes) min" : "\(hours) h" }
        if minutes > 0 { return seconds % 60 > 0 ? "\(minutes) min \(seconds % 60) s" : "\(minutes) min" }
        return "\(seconds) s"
    }

    /// `in 14 min 20 s` or `expired 3 min ago`.
    static func timeLeft(until date: Date, from now: Date) -> String {
        let interval = date.timeIntervalSince(now)
        return interval > 0 ? "in \(duration(interval))" : "expired \(duration(-interval)) ago"
    }

    /// Key–value lines with the values aligned in one column. Values are made terminal-safe
    /// (``TerminalSafeText``): they are mostly the server's words.
    static func block(_ rows: [(String, String)]) -> [String] {
        let rows = rows.map { ($0.terminalSafe, $1.terminalSafe) }
        let width = rows.map { TextTable.displayWidth($0.0) }.max() ?? 0
        return rows.map { key, value in pad(key, to: width) + "  " + value }
    }

    /// Rows of cells with each column padded to its widest cell (the last column is not padded).
    /// Cells are made terminal-safe first, so the padding fits what is shown.
    static func columns(_ rows: [[String]]) -> [String] {
        let rows = rows.map { $0.map(\.terminalSafe) }
        let count = rows.map(\.count).max() ?? 0
        let widths = (0..<count).map { column in
            rows.map { column < $0.count ? TextTable.displayWidth($0[column]) : 0 }.max() ?? 0
        }
        return rows.map { cells in
            cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : pad(cell, to: widths[index])
            }.joined(separator: "  ")
        }
    }

    /// Pads by the columns a terminal gives the text (``TextTable/displayWidth(_:)``: a CJK or
    /// emoji character takes two, a combining mark none), as the tables do, so "José", "Jose" and
    /// "田中" line up when piped too.
    private static func pad(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - TextTable.displayWidth(text)))
    }
}
