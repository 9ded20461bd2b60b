import Foundation
import RiderDomain

extension RiderError {
    /// Whether the server could not answer at all, so an answer from the cache (marked offline)
    /// is better than none. Refusals (401, 403, 404, 4xx) are answers, and are never papered over.
    ///
    /// Exactly the failures worth trying again later (`isTransient`): one list of them, so a
    /// failure that becomes transient also falls back to the cache.
    var allowsCacheFallback: Bool { isTransient }
}
