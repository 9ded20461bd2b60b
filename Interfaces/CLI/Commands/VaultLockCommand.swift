import ArgumentParser
import RiderKit

/// `rider vault lock`: forgets the encrypted files' unlocked keys kept in the kernel keyring, as
/// `sudo -k` forgets its timestamp.
struct VaultLockCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract: "Forget the encrypted file's unlock now: the next command asks for the passphrase.",
        discussion: """
            After the passphrase is typed, the key derived from it is kept in the kernel's user \
            keyring for RIDER_VAULT_UNLOCK_TIMEOUT (900 s), so later commands open the file \
            without asking. This forgets every such key at once, for every server and account. \
            Needs no server; the keyring (Secret Service) vault is not affected.

            Example:
              rider vault lock
            """
    )

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        let output: Output
        switch VaultUnlockRetention.availability {
        case .available:
            output = Output(forgotten: try VaultUnlockRetention.forgetAll(), problem: nil)
        case .unavailable(let reason):
            // Nothing can have been kept: the vault is as locked as it gets.
            output = Output(forgotten: 0, problem: reason)
        }
        let terminal = global.terminal
        try ConfigOutput.print(output, json: global.json, style: terminal.style, lines: output.lines())
    }

    /// What `rider vault lock` reports.
    struct Output: Encodable, Sendable {
        let forgotten: Int
        @Nullable var problem: String?

        func lines() -> [String] {
            if let problem { return ["Nothing was kept to forget: \(problem)."] }
            let keys = forgotten == 1 ? "1 unlocked vault key" : "\(forgotten) unlocked vault keys"
            return ["Forgot \(keys). The next command that opens the encrypted file asks for its passphrase."]
        }
    }
}
