import Foundation
import RiderKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How `rider` signs in again when the session has expired for good in the middle of a command:
/// on a terminal it asks for the password (and the email when the cache does not know it) and
/// the command carries on; anywhere else there is no handler, so the command stops with exit
/// code 4 and the one-line hint to run `rider login`.
enum ReauthenticationPrompt {
    /// The handler, or `nil` when standard input or standard error is not a terminal (scripts,
    /// pipes, CI), where nobody could answer.
    static func make() -> Reauthentication? {
        guard isatty(STDIN_FILENO) == 1, isatty(STDERR_FILENO) == 1 else { return nil }
        return Reauthentication(whileAsking: .wait, maximumAttempts: 3) { request in
            let hint = "run `rider login` and try again"
            let email: String
            if let known = request.email {
                email = known
            } else {
                email = try TerminalInput.readLine(prompt: "Your session has expired. Email: ", echo: true, hint: hint)
                    .trimmingCharacters(in: .whitespaces)
            }
            let password = try TerminalInput.readLine(prompt: passwordPrompt(email: email, attempt: request.attempt),
                                                      echo: false, hint: hint)
            // An empty answer declines: the command then stops with the usual hint.
            guard !email.isEmpty, !password.isEmpty else { return nil }
            return Credentials(email: email, password: password)
        }
    }

    /// The question for the password. The email may come from the cache, that is from the
    /// server, so it is shown terminal-safe.
    static func passwordPrompt(email: String, attempt: Int) -> String {
        let intro = attempt == 1 ? "Your session has expired. " : "That did not work. "
        return "\(intro)Password for \(email.terminalSafe): "
    }
}
