import Foundation

/// Where a result came from, so callers and people can judge how far to trust it.
public enum DataSource: Hashable, Sendable {
    /// Downloaded from the server by this call.
    case network
    /// The cached copy, confirmed unchanged by the server in this call (`304 Not Modified`).
    case revalidated
    /// Read from the local cache without asking the server.
    case cache
    /// Read from the local cache because the server could not answer; `reason` says why.
    case offline(reason: RiderError)

    /// Whether the server took part in this answer.
    public var isFromServer: Bool {
        switch self {
        case .network, .revalidated: true
        case .cache, .offline: false
        }
    }
}
