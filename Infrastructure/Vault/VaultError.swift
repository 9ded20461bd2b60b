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
    /// Others may read or change the file, or change a folder on the way to it, so it is not
    /// trusted (like ssh). A folder's path ends in `/`; its mode keeps the sticky and set-group bits.
    case permissionsTooOpen(file: String, mode: Int)
    /// The file or a folder on the way to it (path ending in `/`) belongs to `owner`, not to
    /// `user` (the current user; root may also own the folders above), so it is not trusted.
    case notOwned(file: String, owner: String, user: String)
    /// The encrypted file needs a passphrase and none was given.
    case passphraseRequired
    /// No passphrase was chosen for a new encrypted session file: the person's entries differed,
    /// or were too short, as often as they were asked. Nothing was written.
    case passphraseNotChosen(file: String)
    /// The keyring (or another backend) cannot be used; `reason` says why.
    case unavailable(reason: String)
    /// The backend did not answer within the timeout.
    case timedOut(after: Duration)
    /// Reading or writing failed at the operating-system level.
    case io(file: String, reason: String)
    /// The stored secret is not a session RiderKit wrote (for example a foreign keyring item).
    case unreadableSecret(detail: String)
    /// The stored session belongs to another server; it was not used, and nothing was sent.
    case boundToAnotherServer(location: String, stored: String, requested: String)
    /// A session file written before sessions were bound to their server, at a path the
    /// configuration names; it is not used until `rider vault adopt` binds it.
    case unboundSession(file: String, requested: String)

    /// The port-level error for this failure, with the same actionable message and this error
    /// as its `underlying` cause.
    package var riderError: RiderError {
        let error = RiderError.storage(message, underlying: self)
        return remedy.map(error.suggesting) ?? error
    }

    /// What would resolve it, for a front end to advise in its own terms (`rider vault reset`, …).
    package var remedy: RiderError.Remedy? {
        switch self {
        case .wrongPassphrase: .checkPassphrase
        case .passphraseRequired: .givePassphrase
        case .passphraseNotChosen: nil
        case .corrupted, .unreadableSecret: .resetVault
        case .unboundSession: .adoptOrResetVault
        case .unsupportedVersion, .permissionsTooOpen, .notOwned, .unavailable, .timedOut, .io, .boundToAnotherServer:
            nil
        }
    }

    /// A sentence saying what happened and what to do, without any secret.
    package var message: String {
        switch self {
        case .wrongPassphrase(let file):
            "the passphrase does not open \(file); the file was not changed"
        case .corrupted(let file, let detail):
            "the vault file \(file) is damaged (\(detail)); it was left as it is: move it aside or remove "
                + "the stored session, then sign in again"
        case .unsupportedVersion(let file, let version):
            "the vault file \(file) has format version \(version), which this RiderKit cannot read; "
                + "use a newer RiderKit, or move the file aside"
        case .permissionsTooOpen(let file, let mode):
            if !file.hasSuffix("/") {
                String(format: "refusing to use %@: its permissions %03o let other users in; run `chmod 600 %@` "
                    + "if you trust its contents", file, mode, file)
            } else if mode & 0o1000 != 0 {
                // A shared folder such as /tmp: opening it up was deliberate, so never suggest closing it.
                String(format: "refusing to keep private files directly in %@: it is a shared folder (mode %03o) "
                    + "where other users can create files; use a folder of your own inside it, made with "
                    + "`mkdir -m 700 %@rider`", file, mode, file)
            } else {
                String(format: "refusing to use %@: its permissions %03o let other users change what is in it; "
                    + "run `chmod go-w %@` if you trust its contents", file, mode, file)
            }
        case .notOwned(let file, let owner, let user):
            "refusing to use \(file): it belongs to \(owner), not to you (\(user)), so they could change it; "
                + "run `chown \(user) \(file)` if you trust its contents, or choose a path of your own"
        case .passphraseRequired:
            "the encrypted session file needs a passphrase, and none was given"
        case .passphraseNotChosen(let file):
            "no passphrase was chosen for the new encrypted session file \(file) (the entries differed or were "
                + "too short each time); nothing was written"
        case .unavailable(let reason):
            "the keyring cannot be used: \(reason)"
        case .timedOut(let after):
            "the keyring did not answer within \(after); it may be waiting for an unlock prompt"
        case .io(let file, let reason):
            "cannot use \(file): \(reason)"
        case .unreadableSecret(let detail):
            "the keyring item is not a RiderKit session (\(detail)); remove the stored session"
        case .boundToAnotherServer(let location, let stored, let requested):
            "the session in \(location) belongs to \(stored), not to \(requested); it was not used and "
                + "nothing was sent. Use a vault of its own for \(requested) (another `file:` path), or log "
                + "out of \(stored) first"
        case .unboundSession(let file, let requested):
            "the session file \(file) was written by an older RiderKit and does not record which server it "
                + "belongs to, so it was not used; if it is your session on \(requested), adopt it (bind it to "
                + "that server), else remove it and sign in again"
        }
    }
}

extension VaultError: LocalizedError {
    public var errorDescription: String? { message }
}
