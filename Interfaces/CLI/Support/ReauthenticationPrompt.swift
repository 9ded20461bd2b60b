import Foundation
import RiderKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How `rider` signs in again when the session has expired for good in the middle of a command:
/// on a terminal it asks for the password (and the email when the cache does not know it) and
/// the command carries on — or, when a resource asks for a scope the session lacks, whether to
/// sign in again in the browser for it; anywhere else there is no handler, so the command stops with exit
/// code 4 and the one-line hint to run `rider login`.
enum ReauthenticationPrompt {
    /// The handler, or `nil` when standard input or standard error is not a terminal (scripts,
    /// pipes, CI), where nobody could answer.
    static func make() -> Reauthentication? {
        guard isatty(STDIN_FILENO) == 1, isatty(STDERR_FILENO) == 1 else { return nil }
        return Reauthentication(whileAsking: .wait, maximumAttempts: 3) { request -> SignInFlow? in
            let hint = "run `rider login` and try again"
            if let scope = request.scope { return try stepUp(to: scope) }
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
            return .password(Credentials(email: email, password: password))
        }
    }

    /// A resource asked for a scope the session lacks (step-up): the person says whether to sign
    /// in again in the browser to grant it; anything but yes declines, and the command stops
    /// saying which scope was wanted.
    static func stepUp(to scope: String) throws -> SignInFlow? {
        let answer = try TerminalInput.readLine(
            prompt: "The server asks for more access (scope \(scope.terminalSafe)) than this session was granted. "
                + "Sign in again in the browser to grant it? [y/N] ",
            echo: true, hint: "run `rider login --web` and try again")
        guard ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased()) else { return nil }
        return .browser(prompt: { prompt in
            Console.standardError((prompt.openedInBrowser ? "The sign-in page was opened in your browser; if it did "
                + "not open, open this address on this machine (it works once):" : "To sign in, open this address "
                + "in a browser on this machine (it works once):") + "\n  \(prompt.url.absoluteString.terminalSafe)")
        })
    }

    /// The question for the password. The email may come from the cache, that is from the
    /// server, so it is shown terminal-safe.
    static func passwordPrompt(email: String, attempt: Int) -> String {
        let intro = attempt == 1 ? "Your session has expired. " : "That did not work. "
        return "\(intro)Password for \(email.terminalSafe): "
    }
}
