import Foundation
import RiderKit

/// Asks for the encrypted file's passphrase on the terminal, without echo. Never from argv.
enum VaultPrompt {
    /// A passphrase source that prompts once; when `file` does not exist yet, the passphrase is
    /// new and is asked twice so a typo cannot lock the session away.
    static func passphrase(confirmingNewFile file: URL) -> VaultPassphrase {
        VaultPassphrase { () throws(VaultError) in
            // New only when no account's file exists either (`session.<account>.vault` beside it):
            // every file of the server shares the passphrase.
            let stem = file.deletingPathExtension().lastPathComponent + "."
            let siblings = (try? FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)) ?? []
            let isNew = !siblings.contains {
                $0 == file.lastPathComponent || ($0.hasPrefix(stem) && $0.hasSuffix("." + file.pathExtension))
            }
            return try isNew ? readNew(prompt: "New vault passphrase: ") : read(prompt: "Vault passphrase: ")
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

    /// A new passphrase, typed twice.
    /// - Throws: ``VaultError/passphraseRequired`` when there is no terminal or the two differ.
    static func readNew(prompt: String) throws(VaultError) -> String {
        let first = try read(prompt: prompt)
        guard first == (try read(prompt: "Repeat the passphrase: ")) else { throw .passphraseRequired }
        return first
    }
}
