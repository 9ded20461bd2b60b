import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Takes signals through dispatch sources for a while, and is only returned once they are
/// really watched, so a signal sent the moment after (a Ctrl-Z as soon as a prompt shows) is
/// never lost nor handled by its default action.
///
/// Why this is more than `DispatchSource.makeSignalSource`: on Linux, libdispatch registers a
/// source asynchronously, on its manager thread, and only then installs the signal action that
/// routes the signal to its `signalfd`; until then the signal is ignored (it must be, or its
/// default action could strike first). It also installs that action only the first time a
/// process watches a signal, so after ``cancel()`` handed the previous action back, the next
/// watch of the same signal puts dispatch's action back itself. Both are facts of
/// swift-corelibs-libdispatch's `event_epoll.c`, not of the API; on Darwin the kernel queue
/// sees ignored signals and none of this is needed.
final class SignalWatch: @unchecked Sendable {
    // @unchecked: `previous` and `sources` are written in `init` and `cancel()`, which the
    // owner calls once, after the watch has done its work.
    private var sources: [any DispatchSourceSignal] = []
    private var previous: [(Int32, sigaction)] = []

    /// Watches `signals`, calling `handler` on `queue` for each one that arrives.
    /// Returns once every source is registered (or after a second, should dispatch not answer).
    init(_ signals: [Int32], queue: DispatchQueue, handler: @escaping @Sendable (Int32) -> Void) {
        let registered = DispatchGroup()
        for number in signals {
            var old = sigaction()
            var ignore = Self.action(SIG_IGN)
            sigaction(number, &ignore, &old)
            previous.append((number, old))
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            registered.enter()
            source.setRegistrationHandler { registered.leave() }
            source.resume()
            sources.append(source)
        }
        _ = registered.wait(timeout: .now() + 1)
        for number in signals { Self.routeToDispatch(number) }
    }

    /// Stops watching and hands every signal back to the action it had before.
    func cancel() {
        for source in sources { source.cancel() }
        sources = []
        for (number, action) in previous {
            var action = action
            sigaction(number, &action, nil)
        }
        previous = []
    }

    // MARK: - Dispatch's own signal action

    private static let lock = NSLock()
    nonisolated(unsafe) private static var dispatchActions: [Int32: sigaction] = [:]

    /// Makes sure `number` reaches dispatch: the first watch records the action dispatch
    /// installed; later watches find the signal still ignored (dispatch did not install it
    /// again) and put the recorded one back. Also called after a handler used the default
    /// action (to stop, say) while the watch goes on.
    static func routeToDispatch(_ number: Int32) {
        lock.withLock {
            var current = sigaction()
            sigaction(number, nil, &current)
            let handler = Self.address(of: current)
            if handler != Self.address(of: action(SIG_IGN)) && handler != Self.address(of: action(SIG_DFL)) {
                dispatchActions[number] = current
            } else if var recorded = dispatchActions[number] {
                sigaction(number, &recorded, nil)
            }
        }
    }

    private static func action(_ handler: sighandler_t?) -> sigaction {
        var action = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = handler
        #else
        action.__sigaction_u.__sa_handler = handler
        #endif
        return action
    }

    /// The handler's address: SIG_IGN and SIG_DFL are small integers, not functions to compare.
    private static func address(of action: sigaction) -> Int {
        #if canImport(Glibc)
        let handler = action.__sigaction_handler.sa_handler
        #else
        let handler = action.__sigaction_u.__sa_handler
        #endif
        return handler.map { unsafeBitCast($0, to: Int.self) } ?? 0
    }
}
