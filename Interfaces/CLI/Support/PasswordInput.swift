import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a password may come from: the terminal without echo, or the first line of stdin.
/// Never the command line, where it would be visible in the process list and shell history.
enum PasswordInput {
    /// - Parameter fromStandardInput: `--password-stdin` was given.
    /// - Throws: ``CLIError/usage(_:)`` when there is nowhere to read it from.
    static func read(fromStandardInput: Bool, prompt: String = "Password: ") throws -> String {
        if fromStandardInput { return try standardInput() }
        return try TerminalInput.readLine(prompt: prompt, echo: false,
                                          hint: "pipe the password in with --password-stdin")
    }

    /// A new password, typed twice on the terminal so a typo is caught, or read once from stdin.
    /// - Throws: ``CLIError/usage(_:)`` when the two differ or there is nowhere to read from.
    static func readNew(fromStandardInput: Bool) throws -> String {
        if fromStandardInput { return try standardInput() }
        let first = try read(fromStandardInput: false, prompt: "Password (at least 8 characters): ")
        let second = try read(fromStandardInput: false, prompt: "Repeat the password: ")
        guard first == second else { throw CLIError.usage("The two passwords differ; nothing was registered.") }
        return first
    }

    private static func standardInput() throws -> String {
        // Typing into --password-stdin would echo the password; the prompt exists for that.
        guard isatty(STDIN_FILENO) == 0 else {
            throw CLIError.usage("--password-stdin expects the password on a pipe, not a terminal; "
                + "leave the flag out to be asked without echo.")
        }
        guard let line = try LineInput.readLine(from: STDIN_FILENO), !line.isEmpty else {
            throw CLIError.usage("--password-stdin was given but standard input holds no password.")
        }
        return line
    }
}
