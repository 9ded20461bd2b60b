import Foundation

/// Tells the time and waits, so expiry, backoff and cache ages can be tested without sleeping.
///
/// Named after its role; it shadows the standard library's `Clock` only inside
/// modules that import RiderDomain, which is intended.
public protocol Clock: Sendable {
    /// The current instant.
    var now: Date { get }

    /// Waits `seconds` (a backoff between retries).
    /// - Throws: `CancellationError` at once when the task is cancelled, without waiting out the delay.
    func sleep(for seconds: TimeInterval) async throws
}

extension Clock {
    /// Sleeps for real with `Task.sleep`, which ends early with `CancellationError` on cancellation.
    public func sleep(for seconds: TimeInterval) async throws {
        guard seconds > 0 else { return try Task.checkCancellation() }
        try await Task.sleep(nanoseconds: UInt64(min(seconds, 86_400) * 1_000_000_000))
    }
}
