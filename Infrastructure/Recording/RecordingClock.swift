import Foundation
import RiderDomain
import Synchronization

/// The client's clock while it records (``RecordingTransport/clock``): once a response has
/// arrived, it tells the moment it arrived — the `received_at` written down — until the next
/// one does.
///
/// So the time the client stamps on what it got (a session's issue time, hence its expiry; when a
/// user was cached) is the very time a replay will tell, and a replay prints and decides the
/// same. Before the first response it tells the time of `base`.
final class RecordingClock: Clock {
    private let base: any Clock
    private let pinned = Mutex<Date?>(nil)

    init(base: any Clock) { self.base = base }

    var now: Date { pinned.withLock { $0 } ?? base.now }

    /// From now on, tells `date` (or a later pinned time, when responses overtook each other).
    func pin(_ date: Date) {
        pinned.withLock { $0 = max($0 ?? date, date) }
    }

    func sleep(for seconds: TimeInterval) async throws {
        try await base.sleep(for: seconds)
    }
}
