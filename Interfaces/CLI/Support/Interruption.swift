import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lets Ctrl-C (and SIGTERM, SIGHUP) end a wait cleanly: the waiting task is cancelled, so a
/// sign-in closes its listener and stores nothing, and then the process ends by the same signal,
/// as the shell expects (status 128 + signal).
enum Interruption {
    private static let signals = [SIGINT, SIGTERM, SIGHUP]

    /// What a cancelled write says: a request already sent cannot be called back, so the server
    /// may have made the change (or may not): the person looks rather than guesses.
    static let writeMayHaveHappened = "cancelled while the change was on its way to the server: it may have been "
        + "made. `rider profile show` tells."

    /// Runs `operation`, cancelling it when one of the signals arrives.
    /// - Parameters:
    ///   - cancelled: printed on standard error when a signal cancelled the operation.
    ///   - json: with `--json`: `cancelled` goes out as the `cancelled` error object instead.
    /// - Returns: what `operation` returns, when no signal came.
    static func cancelling<Result: Sendable>(saying cancelled: String, json: Bool = false,
                                             _ operation: @escaping @Sendable () async throws -> Result)
        async throws -> Result {
        try await cancelling(saying: { cancelled }, json: json, operation)
    }

    /// Runs `operation`, cancelling it when one of the signals arrives.
    /// - Parameters:
    ///   - cancelled: what to print on standard error when a signal cancelled the operation,
    ///     asked then (an upload knows only then how much of it was sent).
    ///   - json: with `--json`: that goes out as the `cancelled` error object, as a cancellation
    ///     without a signal does, so a script reads every line of standard error as JSON.
    /// - Returns: what `operation` returns, when no signal came.
    static func cancelling<Result: Sendable>(saying cancelled: @escaping @Sendable () -> String, json: Bool = false,
                                             _ operation: @escaping @Sendable () async throws -> Result)
        async throws -> Result {
        let task = Task { try await operation() }
        let received = SignalNumber()
        let watch = SignalWatch(signals, queue: DispatchQueue(label: "rider.interruption")) { number in
            received.set(number)
            task.cancel()
        }
        let outcome = await task.result
        watch.cancel()
        if let number = received.value {
            if json {
                Console.standardError(json: JSONOutput.string(ErrorOutput(code: "cancelled", message: cancelled()))
                    ?? #"{"error":{"code":"cancelled","message":"Cancelled."}}"#)
            } else {
                Console.standardError("rider: " + cancelled())
            }
            signal(number, SIG_DFL)
            // Raised on this thread with the signal unblocked here: sent to the process (kill), it
            // could wait pending on threads that dispatch left blocking it, and the process then
            // went on to print "Cancelled." and exit 1.
            var only = sigset_t()
            sigemptyset(&only)
            sigaddset(&only, number)
            pthread_sigmask(SIG_UNBLOCK, &only, nil)
            raise(number)
            // Still here: end as the signal would have, status 128 + signal.
            exit(128 + number)
        }
        return try outcome.get()
    }
}

/// The signal that arrived, set from the dispatch queue and read after the task ended.
private final class SignalNumber: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var number: Int32?

    func set(_ value: Int32) { lock.withLock { if number == nil { number = value } } }
    var value: Int32? { lock.withLock { number } }
}
