import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns a terminal's echo off for a password prompt and makes sure the person gets it back
/// whatever happens meanwhile, the way `readpassphrase(3)` does: on return, and on every signal
/// that ends or stops the process at the prompt.
///
/// - SIGINT, SIGTERM, SIGHUP, SIGQUIT: echo is restored, then the signal is delivered again with
///   its default action, so the process ends the way the shell expects (status 128 + signal).
/// - SIGTSTP (Ctrl-Z): echo is restored and the process stops as usual; when `fg` continues it,
///   echo goes off again and the prompt is shown again, since the shell has drawn over it.
///
/// The signals are taken through dispatch sources (the process ignores them meanwhile, so the
/// default action cannot strike first) and handed back on ``restore()``.
final class TerminalEcho: @unchecked Sendable {
    // @unchecked: the stored properties are written in `init` only; `silent` is read by the
    // handlers, which run one at a time on a serial queue.
    private let descriptor: Int32
    private let original: termios
    private let silent: termios
    private let prompt: String
    private var sources: [any DispatchSourceSignal] = []
    private var previous: [(Int32, sighandler_t?)] = []
    private static let ending = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
    private let queue = DispatchQueue(label: "rider.terminal-echo")

    /// Turns echo off on `descriptor` (keeping the newline the person ends the line with).
    /// - Returns: `nil` when the terminal does not let echo be changed.
    init?(descriptor: Int32, prompt: String) {
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else { return nil }
        self.descriptor = descriptor
        self.prompt = prompt
        original = settings
        settings.c_lflag &= ~tcflag_t(ECHO | ECHOE | ECHOK)
        settings.c_lflag |= tcflag_t(ECHONL)
        silent = settings
        for number in Self.ending + [SIGTSTP, SIGCONT] {
            previous.append((number, signal(number, SIG_IGN)))
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [weak self] in self?.received(number) }
            source.resume()
            sources.append(source)
        }
        guard apply(silent) else {
            restore()
            return nil
        }
    }

    /// Puts the terminal back as it was and hands the signals back.
    func restore() {
        for source in sources { source.cancel() }
        sources = []
        _ = apply(original)
        for (number, handler) in previous { signal(number, handler) }
        previous = []
    }

    private func received(_ number: Int32) {
        switch number {
        case SIGTSTP:
            _ = apply(original)
            _ = write(descriptor, "\n", 1)
            // Stop as Ctrl-Z means: the default action, from a process-wide signal.
            signal(SIGTSTP, SIG_DFL)
            kill(getpid(), SIGTSTP)
        case SIGCONT:
            // Back from a stop (fg): silent again, and the question asked again.
            signal(SIGTSTP, SIG_IGN)
            _ = apply(silent)
            _ = prompt.withCString { write(descriptor, $0, strlen($0)) }
        default:
            _ = apply(original)
            _ = write(descriptor, "\n", 1)
            signal(number, SIG_DFL)
            kill(getpid(), number)
        }
    }

    private func apply(_ settings: termios) -> Bool {
        var settings = settings
        return tcsetattr(descriptor, TCSAFLUSH, &settings) == 0
    }
}
