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
/// Cancelling is not always enough: libsecret ends a cancelled prompt by asking the provider to
/// dismiss it and then waits for the provider's `Completed` signal, which a provider that is
/// stuck, or that never completes that prompt, does not send. So the caller stops waiting
/// ``abandonGrace`` after the timeout whatever the call does, and gets
/// ``VaultError/timedOut(after:)``; the call's thread is left to finish (or not) on its own.
///
/// Calls take turns, process-wide: libsecret is not safe to call from several threads at once.
/// Two vaults clearing one item at the same moment made it complete a `GTask` twice
/// (`GLib-GIO-CRITICAL … !task->ever_returned`), the visible end of a race inside its shared
/// `SecretService` proxy. A call waits for its turn at most until its own timeout; an abandoned
/// call keeps the turn until it returns, so later calls time out too rather than enter
/// libsecret beside it.
enum KeyringCall {
    /// The cancellable handed to the call, valid only during it.
    typealias Cancellable = UnsafeMutablePointer<GCancellable>

    /// How long after its timeout a call may take to end once cancelled before its caller stops
    /// waiting for it. A cancelled D-Bus call ends within microseconds; a prompt being dismissed
    /// needs one round trip to a live provider.
    static let abandonGrace: Duration = .seconds(1)

    private static let turn = NSLock()

    /// Runs `body` on a thread of its own, with a cancellable that is cancelled after `timeout`.
    /// - Parameter grace: how long past `timeout` to wait for a cancelled call to end before
    ///   answering ``VaultError/timedOut(after:)`` without it (``abandonGrace``; tests shorten it).
    static func run<Value: Sendable>(
        timeout: Duration,
        abandoningAfter grace: Duration = abandonGrace,
        _ body: @escaping @Sendable (Cancellable) throws(VaultError) -> Value
    ) async throws(VaultError) -> Value {
        let answer = Answer<Value>()
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, VaultError>, Never>) in
            let deadline = DispatchWorkItem { answer.give(.failure(.timedOut(after: timeout))) }
            answer.start(continuation, deadline: deadline)
            let thread = Thread { answer.give(runBlocking(timeout: timeout, body)) }
            thread.name = "RiderKit vault"
            thread.start()
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(wholeNanoseconds(timeout + grace)),
                                              execute: deadline)
        }
        return try result.get()
    }

    /// `duration` in whole nanoseconds, at least 0, saturating.
    private static func wholeNanoseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(0, Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000))
    }

    private static func runBlocking<Value>(
        timeout: Duration,
        _ body: (Cancellable) throws(VaultError) -> Value
    ) -> Result<Value, VaultError> {
        guard let cancellable = g_cancellable_new() else {
            return .failure(.unavailable(reason: "GLib could not create a cancellable"))
        }
        let watchdog = Watchdog(cancellable: cancellable)
        let nanoseconds = wholeNanoseconds(timeout)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
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

/// The one answer a caller gets: the call's result, or the timeout once the call has outlived its
/// grace, whichever comes first; the other is dropped.
private final class Answer<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `continuation` and `deadline` are only touched while `lock` is held.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Result<Value, VaultError>, Never>?
    private var deadline: DispatchWorkItem?

    func start(_ continuation: CheckedContinuation<Result<Value, VaultError>, Never>, deadline: DispatchWorkItem) {
        lock.withLock {
            self.continuation = continuation
            self.deadline = deadline
        }
    }

    func give(_ result: Result<Value, VaultError>) {
        let waiting = lock.withLock { () -> CheckedContinuation<Result<Value, VaultError>, Never>? in
            defer {
                continuation = nil
                deadline?.cancel()
                deadline = nil
            }
            return continuation
        }
        waiting?.resume(returning: result)
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
