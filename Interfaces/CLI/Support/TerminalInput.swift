import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Asks questions on the controlling terminal (`/dev/tty`), so prompts work even when stdin
/// and stdout are redirected, and reads passwords with echo turned off.
enum TerminalInput {
    /// Reads one line typed at the terminal.
    /// - Parameter echo: `false` for passwords: nothing typed appears on the screen.
    /// - Throws: ``CLIError/usage(_:)`` when there is no terminal to ask.
    static func readLine(prompt: String, echo: Bool, hint: String) throws -> String {
        // A question can come up in the middle of an upload (an expired session, the vault's
        // passphrase): its progress bar waits, so it never draws over the prompt.
        try StatusLine.standardError.hidden { try ask(prompt: prompt, echo: echo, hint: hint) }
    }

    /// Tells the person at the terminal something before a question (why it is asked, why it is
    /// asked again): on the terminal, where the question appears, whatever stderr is. Nothing when
    /// there is no terminal.
    static func tell(_ text: String) {
        let descriptor = open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        StatusLine.standardError.hidden { show(text + "\n", on: descriptor) }
    }

    private static func ask(prompt: String, echo: Bool, hint: String) throws -> String {
        let descriptor = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CLIError.usage("There is no terminal to ask on; \(hint).")
        }
        defer { close(descriptor) }
        guard !echo else {
            show(prompt, on: descriptor)
            return try LineInput.readLine(from: descriptor) ?? ""
        }
        // Echo goes off before the prompt shows (as readpassphrase(3) does): whatever is typed
        // once it is on the screen stays hidden, and a Ctrl-Z at it is caught.
        guard let echo = TerminalEcho(descriptor: descriptor, prompt: prompt) else {
            throw CLIError.usage("The terminal does not allow turning echo off; \(hint).")
        }
        defer { echo.restore() }
        return try LineInput.readLine(from: descriptor) ?? ""
    }

    private static func show(_ text: String, on descriptor: Int32) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count) }
    }
}
