import Foundation
import RiderDomain

extension RiderError {
    /// Whether trying again later may succeed without the user doing anything.
    var isTransient: Bool {
        switch self {
        case .serverUnreachable, .timedOut, .rateLimited: return true
        case .server(let status, _): return status >= 500
        default: return false
        }
    }
}
