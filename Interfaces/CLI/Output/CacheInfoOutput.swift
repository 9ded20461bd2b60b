import Foundation
import RiderKit

/// Where an answer came from and how old it is, as `rider` prints it.
struct CacheInfoOutput: Encodable, Sendable {
    /// `network`, `revalidated`, `cache` or `offline`.
    let source: String
    @Nullable var storedAt: Date?
    @Nullable var ageSeconds: Int?
    let stale: Bool
    /// Why the server could not answer, for `offline`.
    @Nullable var offlineReason: String?

    init(source: DataSource, storedAt: Date?, stale: Bool, now: Date) {
        switch source {
        case .network: self.source = "network"
        case .revalidated: self.source = "revalidated"
        case .cache: self.source = "cache"
        case .offline: self.source = "offline"
        }
        if case .offline(let reason) = source {
            offlineReason = reason.errorDescription
        } else {
            offlineReason = nil
        }
        self.storedAt = storedAt
        ageSeconds = storedAt.map { Int(max(0, now.timeIntervalSince($0)).rounded()) }
        self.stale = stale
    }

    init(_ cached: Cached<some Sendable>, now: Date) {
        self.init(source: cached.source, storedAt: cached.storedAt, stale: cached.isStale, now: now)
    }

    /// `from the server`, `cached 4 min ago, confirmed by the server`, `cached 2 h ago (stale)`…
    var summary: String {
        let age = ageSeconds.map { HumanFormat.duration(TimeInterval($0)) + " ago" } ?? "at an unknown time"
        switch source {
        case "network": return "from the server"
        case "revalidated": return "from the local cache, confirmed unchanged by the server"
        case "offline": return "from the local cache, stored \(age): OFFLINE, the server could not be reached"
        default: return "from the local cache, stored \(age)" + (stale ? " (stale)" : "")
        }
    }
}
