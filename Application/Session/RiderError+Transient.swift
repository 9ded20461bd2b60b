import Foundation
import RiderDomain

extension RiderError {
    /// Whether trying again later may succeed without the user doing anything.
    var isTransient: Bool {
        switch code {
        case .serverUnreachable, .timedOut, .rateLimited: return true
        case .server: return (status ?? 0) >= 500
        default: return false
        }
    }
}
