import Foundation

/// The refresh that runs beside the requests once the token enters the leeway: a request whose
/// token is still valid is sent at once with it, and starts at most one of these, which renews
/// the session through the engine's single flight (the cross-process lock as always). Only a
/// request whose token has actually expired waits for a refresh.
///
/// Started from the lock-free read of the session (no hop onto the engine's actor for the
/// request), so its own state is a lock and two fields: the refresh running, and how long to
/// wait after one failed for want of the network before the next try — otherwise, with the
/// server down, every request in the leeway would start one. The process waits for it before
/// it exits (``finish()``, through `RiderKit.close()`): a refresh cut off after the server
/// rotated the refresh token would lose the session.
final class RefreshAhead: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var running: Task<Void, Never>?
    private var heldUntil: Date?

    /// Starts `refresh` unless one is running, or one failed and asked to wait past `now`.
    func start(at now: Date, _ refresh: @escaping @Sendable () async -> Void) {
        lock.withLock {
            guard running == nil, heldUntil.map({ now >= $0 }) ?? true else { return }
            heldUntil = nil
            // The task's last step takes the lock, so it cannot clear `running` before this
            // assignment made it.
            running = Task {
                await refresh()
                self.lock.withLock { self.running = nil }
            }
        }
    }

    /// The refresh just made failed and may be tried again from `date`.
    func hold(until date: Date) {
        lock.withLock { heldUntil = date }
    }

    /// Returns when no refresh ahead is running (one that started while it waited included).
    func finish() async {
        while let task = lock.withLock({ running }) { await task.value }
    }
}
