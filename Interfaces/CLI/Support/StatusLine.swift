import Foundation
import Synchronization

/// The one transient line `rider` may draw on standard error — the upload progress bar — kept apart
/// from prompts: ``hidden(while:)`` erases it while a question is asked on the terminal and
/// draws it again afterwards, so a password prompt is never overdrawn.
final class StatusLine: Sendable {
    /// The status line of this process's standard error.
    static let standardError = StatusLine()

    private struct State {
        var text: String?
        var hidden = 0
    }

    private let state = Mutex(State())

    /// Draws `text` over the current status line (or remembers it while hidden).
    func show(_ text: String) {
        // Made terminal-safe as one field: it names a file, and a CR or ESC in a file name would
        // draw over the line or drive the terminal.
        let text = text.terminalSafe
        state.withLock { state in
            state.text = text
            if state.hidden == 0 { Self.write("\r" + text + Self.eraseToEnd) }
        }
    }

    /// Erases the line and forgets it.
    func clear() {
        state.withLock { state in
            if state.text != nil, state.hidden == 0 { Self.write("\r" + Self.eraseToEnd) }
            state.text = nil
        }
    }

    /// Runs `body` with the line erased, then draws it again.
    func hidden<T>(while body: () throws -> T) rethrows -> T {
        state.withLock { state in
            if state.text != nil, state.hidden == 0 { Self.write("\r" + Self.eraseToEnd) }
            state.hidden += 1
        }
        defer {
            state.withLock { state in
                state.hidden -= 1
                if let text = state.text, state.hidden == 0 { Self.write("\r" + text + Self.eraseToEnd) }
            }
        }
        return try body()
    }

    /// ECMA-48 "erase in line" from the cursor to the end.
    private static let eraseToEnd = "\u{1B}[K"

    private static func write(_ text: String) {
        try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
    }
}
