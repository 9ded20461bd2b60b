import Foundation
import RiderDomain

/// The time as a recording saw it (``ReplayTransport/clock``): expiry, proactive refresh, cache
/// ages and the times a program prints come out as they did in the recorded run.
struct ReplayClock: Clock {
    let replay: ReplayTransport

    var now: Date { replay.now }

    /// Returns at once: a recorded answer is ready whenever it is asked for.
    /// - Throws: `CancellationError` when the task is cancelled.
    func sleep(for seconds: TimeInterval) async throws {
        try Task.checkCancellation()
        await Task.yield()
    }
}
