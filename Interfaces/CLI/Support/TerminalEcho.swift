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
/// The signals are taken through a ``SignalWatch`` (watched before the prompt is shown, so a
/// Ctrl-Z the moment it appears is caught) and handed back on ``restore()``.
final class TerminalEcho: @unchecked Sendable {
    // @unchecked: the handlers (one at a time, on a serial queue) read only the constants;
    // `watch` is set in `init` and cleared in `restore()`, both on the prompting thread.
    private let descriptor: Int32
    private let original: termios
    private let silent: termios
    private let prompt: String
    private var watch: SignalWatch?
    private static let ending = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Turns echo off on `descriptor` (keeping the newline the person ends the line with), then
    /// shows `prompt`, so nothing typed after the prompt appears can be echoed.
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
        watch = SignalWatch(Self.ending + [SIGTSTP, SIGCONT], queue: DispatchQueue(label: "rider.terminal-echo")) {
            [weak self] number in self?.received(number)
        }
        guard apply(silent) else {
            restore()
            return nil
        }
        show(prompt)
    }

    /// Puts the terminal back as it was and hands the signals back.
    func restore() {
        watch?.cancel()
        watch = nil
        _ = apply(original)
    }

    private func received(_ number: Int32) {
        switch number {
        case SIGTSTP:
            _ = apply(original)
            show("\n")
            // Stop as Ctrl-Z means: the default action, from a process-wide signal.
            signal(SIGTSTP, SIG_DFL)
            kill(getpid(), SIGTSTP)
        case SIGCONT:
            // Back from a stop (fg): watching Ctrl-Z again, silent again, the question asked again.
            SignalWatch.routeToDispatch(SIGTSTP)
            _ = apply(silent)
            show(prompt)
        default:
            _ = apply(original)
            show("\n")
            signal(number, SIG_DFL)
            kill(getpid(), number)
        }
    }

    private func show(_ text: String) {
        _ = text.withCString { write(descriptor, $0, strlen($0)) }
    }

    private func apply(_ settings: termios) -> Bool {
        var settings = settings
        return tcsetattr(descriptor, TCSAFLUSH, &settings) == 0
    }
}
