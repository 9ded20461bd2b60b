import Foundation
import RiderDomain

/// What can go wrong in a token vault, precisely enough for a person to act on it.
///
/// The ``TokenVault`` port speaks ``RiderError``; the vaults throw these internally and map them
/// with ``riderError`` at the port's seam. Tools that manage the vault itself (`rider vault …`)
/// use the vaults' own methods and see these cases directly. No case ever carries a secret.
public enum VaultError: Error, Hashable, Sendable {
    /// The passphrase does not open the file; the file was left untouched.
    case wrongPassphrase(file: String)
    /// The file is not a vault file, is truncated, or was altered; it was left untouched.
    case corrupted(file: String, detail: String)
    /// The file was written in a format this RiderKit does not know (a newer one, or damage).
    case unsupportedVersion(file: String, version: Int)
    /// Others may read or change the file or its folder, so it is not trusted (like ssh).
    case permissionsTooOpen(file: String, mode: Int)
    /// The encrypted file needs a passphrase and none was given.
    case passphraseRequired
    /// The keyring (or another backend) cannot be used; `reason` says why.
    case unavailable(reason: String)
    /// The backend did not answer within the timeout.
    case timedOut(after: Duration)
    /// Reading or writing failed at the operating-system level.
    case io(file: String, reason: String)
    /// The stored secret is not a session RiderKit wrote (for example a foreign keyring item).
    case unreadableSecret(detail: String)

    /// The port-level error for this failure, with the same actionable message.
    public var riderError: RiderError {
        .storage(message)
    }

    /// A sentence saying what happened and what to do, without any secret.
    public var message: String {
        switch self {
        case .wrongPassphrase(let file):
            "the passphrase does not open \(file) (check RIDER_VAULT_PASSPHRASE or the passphrase file); "
                + "the file was not changed"
        case .corrupted(let file, let detail):
            "the vault file \(file) is damaged (\(detail)); it was left as it is: move it aside or run "
                + "`rider vault reset`, then log in again"
        case .unsupportedVersion(let file, let version):
            "the vault file \(file) has format version \(version), which this RiderKit cannot read; "
                + "use a newer RiderKit, or move the file aside"
        case .permissionsTooOpen(let file, let mode):
            String(format: "refusing to use %@: its permissions %03o let other users in; run `chmod %@ %@` "
                + "if you trust its contents", file, mode, file.hasSuffix("/") ? "700" : "600", file)
        case .passphraseRequired:
            "the encrypted session file needs a passphrase: set RIDER_VAULT_PASSPHRASE, point "
                + "RIDER_VAULT_PASSPHRASE_FILE at a 0600 file holding it, or run rider in a terminal to be asked"
        case .unavailable(let reason):
            "the keyring cannot be used: \(reason)"
        case .timedOut(let after):
            "the keyring did not answer within \(after); it may be waiting for an unlock prompt"
        case .io(let file, let reason):
            "cannot use \(file): \(reason)"
        case .unreadableSecret(let detail):
            "the keyring item is not a RiderKit session (\(detail)); remove it with `rider vault reset`"
        }
    }
}

extension VaultError: LocalizedError {
    public var errorDescription: String? { message }
}
