import Crypto
import Foundation

/// Keys derived by scrypt, kept for the life of the process so the deliberately slow KDF runs
/// once per passphrase and salt rather than on every read and write.
///
/// Entries are looked up by a digest of passphrase, salt and parameters; the passphrase itself
/// is not kept here.
final class DerivedKeyCache: @unchecked Sendable {
    static let shared = DerivedKeyCache()

    private let lock = NSLock()
    private var keys: [SHA256Digest: SymmetricKey] = [:]

    /// The key for these inputs, derived on first use; `whenDerived` sees a key scrypt has just
    /// made (to keep it beyond the process), not one taken from here.
    func key(passphrase: String, salt: [UInt8], parameters: ScryptParameters,
             whenDerived: (SymmetricKey) -> Void = { _ in }) throws(VaultError) -> SymmetricKey {
        var hasher = SHA256()
        hasher.update(data: Array("\(parameters.logN)/\(parameters.r)/\(parameters.p)/".utf8))
        hasher.update(data: salt)
        hasher.update(data: Array(passphrase.utf8))
        let id = hasher.finalize()
        if let key = lock.withLock({ keys[id] }) { return key }
        let key = try VaultCipher.deriveKey(passphrase: passphrase, salt: salt, parameters: parameters)
        lock.withLock { keys[id] = key }
        whenDerived(key)
        return key
    }
}
