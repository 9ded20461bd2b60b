import Foundation
import RiderKit

/// Asks for the encrypted file's passphrase on the terminal, without echo. Never from argv.
enum VaultPrompt {
    /// A passphrase source that prompts; when `file` does not exist yet, the passphrase is
    /// new and is asked twice so a typo cannot lock the session away. A passphrase that does not
    /// open the file is asked for again, saying so, up to ``attempts`` times in all.
    static func passphrase(confirmingNewFile file: URL) -> VaultPassphrase {
        .typed(attempts: attempts) { attempt throws(VaultError) in
            if attempt > 1 { TerminalInput.tell("Wrong passphrase, try again.") }
            // New only when no account's file exists either (`session.<account>.vault` beside it):
            // every file of the server shares the passphrase.
            let stem = file.deletingPathExtension().lastPathComponent + "."
            let siblings = (try? FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)) ?? []
            let isNew = !siblings.contains {
                $0 == file.lastPathComponent || ($0.hasPrefix(stem) && $0.hasSuffix("." + file.pathExtension))
            }
            return try isNew ? readNew(for: file) : read(prompt: "Vault passphrase: ")
        }
    }

    /// One passphrase from the terminal.
    /// - Throws: ``VaultError/passphraseRequired`` when there is no terminal.
    static func read(prompt: String) throws(VaultError) -> String {
        do {
            return try TerminalInput.readLine(prompt: prompt, echo: false,
                                              hint: "set RIDER_VAULT_PASSPHRASE or RIDER_VAULT_PASSPHRASE_FILE")
        } catch {
            throw .passphraseRequired
        }
    }

    /// The fewest characters a new passphrase may have: the file is only as safe as it is hard to guess.
    static let minimumLength = 8
    /// How often a passphrase is asked for before giving up (a new one that is too short or
    /// mistyped, or one that does not open the file), as passwd(1) does.
    static let attempts = 3

    /// A new passphrase for `file`, typed twice: says first what the file is and why it needs one,
    /// and asks again after a mismatch or one that is too short.
    /// - Throws: ``VaultError/passphraseRequired`` when there is no terminal,
    ///   ``VaultError/passphraseNotChosen(file:)`` after the last attempt.
    static func readNew(for file: URL) throws(VaultError) -> String {
        TerminalInput.tell("rider keeps this session in an encrypted file, \(file.path), because no keyring (Secret "
            + "Service) is available here. Choose a passphrase for it, at least \(minimumLength) characters: rider asks "
            + "for it when the file is locked. If you forget it, `rider vault reset` removes the file and you sign "
            + "in again.")
        for attempt in 1...attempts {
            let last = attempt == attempts
            let first = try read(prompt: "New vault passphrase: ")
            guard first.count >= minimumLength else {
                TerminalInput.tell("That is \(first.count) characters; use at least \(minimumLength)."
                    + (last ? "" : " Try again."))
                continue
            }
            guard first == (try read(prompt: "Repeat the passphrase: ")) else {
                TerminalInput.tell("The two entries differ." + (last ? "" : " Try again."))
                continue
            }
            return first
        }
        throw .passphraseNotChosen(file: file.path)
    }
}
