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
    static func read(fromStandardInput: Bool, prompt: String = "Password: ",
                     hint: String = "pipe the password in with --password-stdin") throws -> String {
        if fromStandardInput { return try standardInput() }
        return try TerminalInput.readLine(prompt: prompt, echo: false, hint: hint)
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

    /// A new vault passphrase, typed twice on the terminal, or read once from stdin; at least
    /// ``VaultPrompt/minimumLength`` characters either way.
    /// - Throws: ``CLIError/usage(_:)`` when none was chosen, or a piped one is too short.
    static func readNewPassphrase(fromStandardInput: Bool) throws -> String {
        let minimum = VaultPrompt.minimumLength
        if fromStandardInput {
            let piped = try standardInput(flag: "--new-passphrase-stdin", what: "passphrase")
            guard piped.count >= minimum else {
                throw CLIError.usage("The new passphrase from --new-passphrase-stdin has \(piped.count) characters; "
                    + "use at least \(minimum). Nothing was changed.")
            }
            return piped
        }
        let hint = "pipe the new passphrase in with --new-passphrase-stdin"
        for attempt in 1...VaultPrompt.attempts {
            let again = attempt < VaultPrompt.attempts ? " Try again." : ""
            let first = try read(fromStandardInput: false, prompt: "New vault passphrase: ", hint: hint)
            guard first.count >= minimum else {
                TerminalInput.tell("That is \(first.count) characters; use at least \(minimum).\(again)")
                continue
            }
            guard first == (try read(fromStandardInput: false, prompt: "Repeat the new passphrase: ", hint: hint)) else {
                TerminalInput.tell("The two entries differ.\(again)")
                continue
            }
            return first
        }
        throw CLIError.usage("No new passphrase was chosen (the entries differed or were too short each time); "
            + "nothing was changed.")
    }

    private static func standardInput(flag: String = "--password-stdin", what: String = "password") throws -> String {
        // Typing into --password-stdin would echo the password; the prompt exists for that.
        guard isatty(STDIN_FILENO) == 0 else {
            throw CLIError.usage("\(flag) expects the \(what) on a pipe, not a terminal; "
                + "leave the flag out to be asked without echo.")
        }
        guard let line = try LineInput.readLine(from: STDIN_FILENO), !line.isEmpty else {
            throw CLIError.usage("\(flag) was given but standard input holds no \(what).")
        }
        return line
    }
}
