import Foundation
import RiderKit

/// The `RiderKit`s this process made, closed before it exits: the user cache writes its answers
/// and the recency of lookups in batches, and a process that ends without closing the file also
/// leaves the next one a full integrity check to run. `exit(_:)` runs no Swift deinitializers,
/// so this is the one place the commands' kits are still known at the end.
final class OpenRiders: @unchecked Sendable {
    static let shared = OpenRiders()

    private let lock = NSLock()
    private var riders: [RiderKit] = []

    func add(_ rider: RiderKit) {
        lock.withLock { riders.append(rider) }
    }

    /// Closes every kit made so far, once.
    func closeAll() async {
        let closing = lock.withLock {
            defer { riders.removeAll() }
            return riders
        }
        for rider in closing { await rider.close() }
    }
}
