import Foundation
import RiderDomain

/// A ``Clock`` that stands still until the test moves it, so expiry and refresh timing are
/// tested without sleeping. Safe to read and move from any task.
public final class ManualClock: Clock {
    private let current: LockedState<Date>
    private let sleeps = LockedState<[TimeInterval]>([])

    /// - Parameter now: the starting instant, ``Fixtures/epoch`` unless told.
    public init(now: Date = Fixtures.epoch) {
        current = LockedState(now)
    }

    /// The instant the test last set.
    public var now: Date { current.withLock { $0 } }

    /// Moves the clock forward (or back, for a negative interval).
    /// - Parameter seconds: how far to move.
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// Moves the clock forward by a `Duration`.
    /// - Parameter duration: how far to move.
    public func advance(by duration: Duration) {
        let (seconds, attoseconds) = duration.components
        advance(by: TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18)
    }

    /// Sets the clock to `date`.
    /// - Parameter date: the new instant.
    public func set(to date: Date) {
        current.withLock { $0 = date }
    }

    /// Every delay asked of ``sleep(for:)``, in order.
    public var requestedSleeps: [TimeInterval] { sleeps.withLock { $0 } }

    /// Records the delay and moves the clock by it at once: no real waiting.
    /// - Throws: `CancellationError` when the task is already cancelled.
    public func sleep(for seconds: TimeInterval) async throws {
        try Task.checkCancellation()
        sleeps.withLock { $0.append(seconds) }
        advance(by: seconds)
        await Task.yield()
    }
}
