import Foundation
import RiderKit

extension LoginCommand {
    /// What `rider login` tells the person on standard error while a sign-in is under way.
    ///
    /// Standard output keeps the one result. Without `--json` these are lines of prose; with
    /// `--json` each is one JSON object on its own line, so a script can read every line of
    /// standard error as JSON, the error object at the end included:
    /// - `{"sign_in":{…}}`: where to sign in (``SignInPromptOutput``);
    /// - `{"notice":{"message":…}}`: what the prose would have said (no browser here, a busy
    ///   `--listen` address skipped, a pasted answer that could not be read, …);
    /// - `{"warning":{"message":…}}`: what the prose marks `rider: warning:`.
    enum Notice {
        /// A note for the person: `prefix` + `text`, or `{"notice":{"message":text}}` with `--json`.
        static func notice(_ text: String, prefix: String = "", json: Bool) {
            guard json else { return Console.standardError(prefix + text) }
            emit(["notice": MessageOutput(message: text)])
        }

        /// A warning: `rider: warning: text`, or `{"warning":{"message":text}}` with `--json`.
        static func warning(_ text: String, json: Bool) {
            guard json else { return Console.standardError("rider: warning: " + text.terminalSafe) }
            emit(["warning": MessageOutput(message: text)])
        }

        /// `{"sign_in":…}` on standard error (only with `--json`: the prose says it in sentences).
        static func signIn(_ prompt: SignInPromptOutput) {
            emit(["sign_in": prompt])
        }

        private static func emit(_ object: [String: some Encodable]) {
            // Every value here encodes; should one ever not, a line that still parses says so.
            Console.standardError(json: JSONOutput.string(object) ?? #"{"notice":{"message":"unprintable notice"}}"#)
        }

        struct MessageOutput: Encodable {
            let message: String
        }
    }
}
