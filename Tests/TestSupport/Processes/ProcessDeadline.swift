import Dispatch
import Foundation

/// Kills a child process with SIGKILL if it is still running when its deadline passes, for a test
/// helper that must not wait for ever on a program with no timeout of its own (`secret-tool` on a
/// keyring provider that is stuck).
///
///     let deadline = ProcessDeadline(process, after: .seconds(30))   // once the process runs
///     … read its output, process.waitUntilExit() …
///     if deadline.finish() { throw TimedOut(…) }
public final class ProcessDeadline: @unchecked Sendable {
    // @unchecked: `pid` and `killed` are only touched while `lock` is held.
    private let lock = NSLock()
    private var pid: pid_t?
    private var killed = false
    private var item: DispatchWorkItem?

    /// Arms the deadline for `process`, which must already be running.
    public init(_ process: Process, after timeout: Duration) {
        pid = process.processIdentifier
        let item = DispatchWorkItem { [self] in
            lock.withLock {
                guard let pid else { return }
                killed = kill(pid, SIGKILL) == 0
            }
        }
        self.item = item
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(max(0, nanoseconds)), execute: item)
    }

    /// Disarms the deadline once the process has exited.
    /// - Returns: whether the deadline had passed and killed the process.
    public func finish() -> Bool {
        lock.withLock {
            item?.cancel()
            item = nil
            pid = nil
            return killed
        }
    }
}
