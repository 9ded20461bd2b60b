import Foundation
import RiderDomain

/// A `RefreshLock` for a vault no other process shares (memory, tests): the session engine
/// already refreshes one at a time within the process, so there is nothing more to hold.
package struct InProcessRefreshLock: RefreshLock {
    package init() {}

    package func withLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await body()
    }
}
