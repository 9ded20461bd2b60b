import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lines typed on standard input, read on a thread of their own, for `rider login --web` to wait
/// on a pasted answer and the browser's redirect at once.
///
/// A read(2) cannot be cancelled: when the redirect wins, the thread stays blocked in it until
/// the program exits, which it does once the sign-in ends. The lines are never echoed by rider
/// (the terminal shows what is typed, as it does for any input).
final class PastedLines: Sendable {
    static let standardInput = PastedLines(descriptor: STDIN_FILENO)

    private struct State {
        var started = false
        var lines: [String] = []
        var ended = false
        var waiter: CheckedContinuation<String?, Never>?
    }

    private let descriptor: Int32
    private let state = Mutex(State())

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// The next line; `nil` at end of input, on an unreadable input, and as soon as the waiting
    /// task is cancelled (the line, if one comes later, is kept for the next call).
    func next() async -> String? {
        startReading()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready: String?? = state.withLock { state in
                    if !state.lines.isEmpty { return .some(state.lines.removeFirst()) }
                    if state.ended || Task.isCancelled { return .some(nil) }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            state.withLock { state -> CheckedContinuation<String?, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }?.resume(returning: nil)
        }
    }

    private func startReading() {
        guard state.withLock({ state in
            defer { state.started = true }
            return !state.started
        }) else { return }
        let thread = Thread { [self] in
            while true {
                let line = (try? LineInput.readLine(from: descriptor)) ?? nil
                let waiter = state.withLock { state -> CheckedContinuation<String?, Never>? in
                    if let line { state.lines.append(line) } else { state.ended = true }
                    defer { state.waiter = nil }
                    guard let waiter = state.waiter else { return nil }
                    if line != nil { state.lines.removeFirst() }
                    return waiter
                }
                waiter?.resume(returning: line)
                if line == nil { return }
            }
        }
        thread.start()
    }
}
