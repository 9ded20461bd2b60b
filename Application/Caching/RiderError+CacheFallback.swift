import Foundation
import RiderDomain

extension RiderError {
    /// Whether the server could not answer at all, so an answer from the cache (marked offline)
    /// is better than none. Refusals (401, 403, 404, 4xx) are answers, and are never papered over.
    var allowsCacheFallback: Bool {
        switch code {
        case .serverUnreachable, .timedOut, .rateLimited: true
        case .server: (status ?? 0) >= 500
        default: false
        }
    }
}
