import CKernelKeyring
import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How long an encrypted file stays unlocked once its passphrase has been typed: for the process
/// only, or for the user's later processes too, through the Linux kernel keyring.
///
/// scrypt is slow on purpose (about 0.1 s), and a command-line tool is a new process each time,
/// so without help a person types the passphrase, and waits for scrypt, on every command. With
/// ``kernelKeyring(timeout:)`` the key derived from the passphrase (never the passphrase) is kept
/// as a `user` key in the kernel's user keyring (`@u`) for `timeout`: the user's later processes
/// read it instead of asking, no other user can, it never touches a disk, and it is gone at the
/// timeout, on `rider vault lock` (``forgetAll()``), or when the machine restarts — the way
/// `sudo`'s timestamp or an ssh-agent spares a person the password. The timeout runs from the
/// moment the passphrase was typed, not from the last use.
///
/// Where the kernel refuses keyctl (container seccomp profiles often do), the file behaves as
/// with ``process``, and ``availability`` says why.
public struct VaultUnlockRetention: Sendable, Hashable, CustomStringConvertible {
    /// How long the key is kept in the kernel keyring; `nil` keeps it in the process only.
    package let timeout: Duration?
    /// What the kept keys' names start with; tests use their own, so that a `forgetAll` of
    /// theirs and `rider vault lock` run by another test at the same time miss each other.
    package let keyPrefix: String

    private init(timeout: Duration?, keyPrefix: String = "rider-vault:v1:") {
        self.timeout = timeout
        self.keyPrefix = keyPrefix
    }

    /// The same retention, its keys named with `prefix`.
    package func keyed(under prefix: String) -> VaultUnlockRetention {
        VaultUnlockRetention(timeout: timeout, keyPrefix: prefix)
    }

    /// The key is kept for the life of the process only: each process asks for the passphrase
    /// (or reads it from the environment) and runs scrypt once.
    public static let process = VaultUnlockRetention(timeout: nil)

    /// The key is kept in the kernel's user keyring for `timeout` after each unlock; a timeout
    /// of zero or less is ``process``.
    public static func kernelKeyring(timeout: Duration) -> VaultUnlockRetention {
        VaultUnlockRetention(timeout: timeout > .zero ? timeout : nil)
    }

    /// 15 minutes, as `sudo`'s timestamp.
    package static let standardTimeout = Duration.seconds(900)

    public var description: String {
        guard let timeout else { return "this process only" }
        return "\(Self.spoken(timeout)) in the kernel keyring"
    }

    /// Whether the kernel keyring can be used by this process, and if not, why.
    package static var availability: KernelKeyringAvailability {
        let probe = rider_keyring_probe()
        guard probe < 0 else { return .available }
        return .unavailable(reason: "the kernel refused keyctl (\(Self.explain(probe))), as container seccomp "
            + "profiles often do")
    }

    /// Forgets every key a RiderKit vault kept in the kernel keyring for this user, at once
    /// (`rider vault lock`): the next use of any encrypted file asks for its passphrase again.
    /// - Returns: how many keys were forgotten.
    /// - Throws: ``VaultError/unavailable(reason:)`` when the kernel keyring cannot be used here.
    @discardableResult
    package static func forgetAll() throws(VaultError) -> Int {
        try process.forgetAll()
    }

    /// Forgets every key kept under this retention's ``keyPrefix``.
    @discardableResult
    package func forgetAll() throws(VaultError) -> Int {
        let forgotten = rider_keyring_forget_prefix(keyPrefix)
        guard forgotten >= 0 else {
            throw .unavailable(reason: "the kernel keyring cannot be used here (\(Self.explain(forgotten)))")
        }
        return forgotten
    }

    // MARK: The vault's side

    /// The key kept for a file with this salt and these parameters, when there is one.
    func keptKey(salt: [UInt8], parameters: ScryptParameters) -> SymmetricKey? {
        guard timeout != nil else { return nil }
        var buffer = [UInt8](repeating: 0, count: 64)
        defer { buffer.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) } }
        let length = keyName(salt: salt, parameters: parameters).withCString { description in
            buffer.withUnsafeMutableBytes { rider_keyring_read(description, $0.baseAddress, $0.count) }
        }
        // Another program's key under this name would not be 32 bytes, or fail the key check.
        guard length == 32 else { return nil }
        return SymmetricKey(data: buffer.prefix(32))
    }

    /// Keeps `key` for the timeout; best effort, since without it the file still opens with the
    /// passphrase (a full quota or a refused keyctl only mean being asked again).
    func keep(_ key: SymmetricKey, salt: [UInt8], parameters: ScryptParameters) {
        guard let timeout else { return }
        let seconds = UInt32(clamping: max(1, timeout.components.seconds))
        _ = keyName(salt: salt, parameters: parameters).withCString { description in
            key.withUnsafeBytes { rider_keyring_add(description, $0.baseAddress, $0.count, seconds) }
        }
    }

    /// Forgets the key kept for one salt (the file was removed, or re-encrypted under a new salt).
    func forget(salt: [UInt8], parameters: ScryptParameters) {
        guard timeout != nil else { return }
        _ = keyName(salt: salt, parameters: parameters).withCString { rider_keyring_forget($0) }
    }

    /// The key's name in the keyring: a digest of the salt and parameters, which identify one file's
    /// key (every file gets a fresh random salt) without saying which file.
    private func keyName(salt: [UInt8], parameters: ScryptParameters) -> String {
        var hasher = SHA256()
        hasher.update(data: Array("\(parameters.logN)/\(parameters.r)/\(parameters.p)/".utf8))
        hasher.update(data: salt)
        return keyPrefix + hasher.finalize().prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    private static func explain(_ result: Int) -> String {
        String(cString: strerror(Int32(clamping: -result)))
    }

    private static func spoken(_ duration: Duration) -> String {
        let seconds = duration.components.seconds
        if seconds % 3600 == 0 { return "\(seconds / 3600) h" }
        if seconds % 60 == 0 { return "\(seconds / 60) min" }
        return "\(seconds) s"
    }
}

/// Whether the kernel keyring answers in this process.
package enum KernelKeyringAvailability: Sendable, Hashable {
    /// keyctl answers: an unlock is kept for the user's later processes.
    case available
    /// keyctl is refused or missing; `reason` says so in words a person can act on.
    case unavailable(reason: String)
}
