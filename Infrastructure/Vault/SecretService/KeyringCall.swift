import CLibSecret
import Dispatch
import Foundation

/// Runs one blocking libsecret call on a thread of its own, never on the cooperative pool, and
/// cancels it through a `GCancellable` when it outlives the timeout.
///
/// libsecret's synchronous calls wait on D-Bus: a stuck daemon holds each one for 25 s and an
/// unlock prompt holds it indefinitely. Cancelling the `GCancellable` ends the call at once with
/// `G_IO_ERROR_CANCELLED`, which is reported as ``VaultError/timedOut(after:)``.
///
/// Calls take turns, process-wide: libsecret is not safe to call from several threads at once.
/// Two vaults clearing one item at the same moment made it complete a `GTask` twice
/// (`GLib-GIO-CRITICAL … !task->ever_returned`), the visible end of a race inside its shared
/// `SecretService` proxy. A call waits for its turn at most until its own timeout.
enum KeyringCall {
    /// The cancellable handed to the call, valid only during it.
    typealias Cancellable = UnsafeMutablePointer<GCancellable>

    private static let turn = NSLock()

    static func run<Value: Sendable>(
        timeout: Duration,
        _ body: @escaping @Sendable (Cancellable) throws(VaultError) -> Value
    ) async throws(VaultError) -> Value {
        try await BlockingWork.run { () throws(VaultError) in
            try runBlocking(timeout: timeout, body).get()
        }
    }

    private static func runBlocking<Value>(
        timeout: Duration,
        _ body: (Cancellable) throws(VaultError) -> Value
    ) -> Result<Value, VaultError> {
        guard let cancellable = g_cancellable_new() else {
            return .failure(.unavailable(reason: "GLib could not create a cancellable"))
        }
        let watchdog = Watchdog(cancellable: cancellable)
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(max(0, nanoseconds))) {
            watchdog.fire()
        }
        let result: Result<Value, VaultError>
        // A call stuck in libsecret holds the turn until its own watchdog ends it; this one waits
        // no longer than its own timeout, and never runs once that has passed.
        let deadline = Date(timeIntervalSinceNow: Double(nanoseconds) / 1e9)
        if turn.lock(before: deadline) {
            if g_cancellable_is_cancelled(cancellable) != 0 {
                result = .failure(.timedOut(after: timeout))
            } else {
                do {
                    result = .success(try body(cancellable))
                } catch {
                    result = .failure(error)
                }
            }
            turn.unlock()
        } else {
            result = .failure(.timedOut(after: timeout))
        }
        let fired = watchdog.finish()
        if fired, case .failure = result { return .failure(.timedOut(after: timeout)) }
        return result
    }
}

/// Cancels the call once the timeout passes, unless the call finished first; owns the
/// `GCancellable` so it is released exactly once, whichever happens last.
private final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var cancellable: UnsafeMutablePointer<GCancellable>?
    private var fired = false

    init(cancellable: UnsafeMutablePointer<GCancellable>) { self.cancellable = cancellable }

    func fire() {
        lock.lock()
        defer { lock.unlock() }
        guard let cancellable else { return }
        fired = true
        g_cancellable_cancel(cancellable)
    }

    /// Releases the cancellable; returns whether the watchdog had fired.
    func finish() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if let cancellable { g_object_unref(UnsafeMutableRawPointer(cancellable)) }
        cancellable = nil
        return fired
    }
}
