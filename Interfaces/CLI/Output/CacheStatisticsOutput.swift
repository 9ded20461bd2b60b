import Foundation
import RiderKit

/// What `rider cache stats` prints.
struct CacheStatisticsOutput: Encodable, Sendable {
    let server: String
    /// The account whose cache this is; `nil` while nobody is signed in (nothing is kept then).
    @Nullable var account: String?
    let location: String
    let entries: Int
    let maximumEntries: Int
    let sizeOnDiskBytes: Int64
    @Nullable var oldestStoredAt: Date?
    let hits: Int
    let misses: Int

    init(_ statistics: UserCacheStatistics, server: String, account: String?) {
        self.server = server
        self.account = account
        location = statistics.location
        entries = statistics.entries
        maximumEntries = statistics.maximumEntries
        sizeOnDiskBytes = statistics.sizeOnDisk
        oldestStoredAt = statistics.oldestStoredAt
        hits = statistics.hits
        misses = statistics.misses
    }

    func lines(now: Date) -> [String] {
        let lookups = hits + misses
        let rate = lookups == 0 ? "no lookups yet" : "\(hits * 100 / lookups) % hits"
        return HumanFormat.block([
            ("server", server),
            ("account", account ?? "nobody is signed in: nothing is cached on disk"),
            ("location", location),
            ("entries", "\(entries) of at most \(maximumEntries)"),
            ("size on disk", Self.bytes(sizeOnDiskBytes)),
            ("oldest entry", oldestStoredAt.map { "\(HumanFormat.date($0)) (\(HumanFormat.duration(now.timeIntervalSince($0))) ago)" } ?? "-"),
            ("hits", "\(hits)"),
            ("misses", "\(misses) (\(rate))"),
        ])
    }

    /// `812 B`, `1.4 MB`: decimal units, one decimal.
    static func bytes(_ count: Int64) -> String {
        guard count >= 1_000 else { return "\(count) B" }
        let units = ["kB", "MB", "GB", "TB"]
        var value = Double(count) / 1_000
        var unit = 0
        while value >= 1_000, unit < units.count - 1 {
            value /= 1_000
            unit += 1
        }
        return String(format: "%.1f", value) + " " + units[unit]
    }
}
