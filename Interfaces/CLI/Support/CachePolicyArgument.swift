import ArgumentParser
import RiderKit

/// `--policy network-first|cache-first|…`: parsed here so RiderDomain stays free of ArgumentParser.
enum CachePolicyArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    case networkOnly = "network-only"
    case cacheFirst = "cache-first"
    case networkFirst = "network-first"
    case staleWhileRevalidate = "stale-while-revalidate"
    case cacheOnly = "cache-only"

    var policy: CachePolicy {
        switch self {
        case .networkOnly: .networkOnly
        case .cacheFirst: .cacheFirst
        case .networkFirst: .networkFirst
        case .staleWhileRevalidate: .staleWhileRevalidate
        case .cacheOnly: .cacheOnly
        }
    }
}
