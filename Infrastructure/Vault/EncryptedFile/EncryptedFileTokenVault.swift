import Crypto
import Foundation
import RiderDomain
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps the session in a file encrypted with a key derived from a passphrase: the fallback
/// when no keyring answers (servers, containers, SSH sessions).
///
/// scrypt (N = 2^15, r = 8, p = 1) derives a 256-bit key, AES-256-GCM encrypts the serialized
/// session with the file's header as associated data (`docs/vault.md` has the format). The file
/// is 0600 in a 0700 folder, written atomically under an advisory lock, and never overwritten or
/// removed when it cannot be read: a wrong passphrase or a damaged file is reported, not replaced.
/// The blocking work (lock, scrypt, fsync) runs on its own thread, off the cooperative pool.
public actor EncryptedFileTokenVault: TokenVault {
    /// The encrypted session file.
    public nonisolated let file: URL
    private let passphraseSource: VaultPassphrase
    private var passphrase: String?
    private let parameters: ScryptParameters

    /// - Parameters:
    ///   - file: where the session lives, e.g. ``defaultFile(forOrigin:in:)``.
    ///   - passphrase: where the passphrase comes from; asked for on first use only.
    public init(file: URL, passphrase: VaultPassphrase) {
        self.init(file: file, passphrase: passphrase, parameters: .standard)
    }

    init(file: URL, passphrase: VaultPassphrase, parameters: ScryptParameters) {
        self.file = file
        self.passphraseSource = passphrase
        self.parameters = parameters
    }

    /// `$XDG_STATE_HOME/rider/<server>/session.vault`.
    public static func defaultFile(forOrigin origin: String, in directories: XDGDirectories) -> URL {
        directories.stateFolder(forOrigin: origin).appendingPathComponent("session.vault")
    }

    public nonisolated var location: String { "encrypted file \(file.path) (scrypt, AES-256-GCM, mode 0600)" }

    private nonisolated var lockFile: URL {
        file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).lock")
    }

    public func loadSession() async throws -> Session? {
        do { return try await load() } catch { throw error.riderError }
    }

    public func saveSession(_ session: Session) async throws {
        do { try await save(session) } catch { throw error.riderError }
    }

    public func removeSession() async throws {
        do { try await remove() } catch { throw error.riderError }
    }

    /// The stored session, or `nil` when there is no file.
    /// - Throws: ``VaultError``; the file is never changed by a failed read.
    public func load() async throws(VaultError) -> Session? {
        // No file, no session: not a reason to ask anyone for a passphrase.
        guard fileMayExist else { return nil }
        let passphrase = try await resolvedPassphrase()
        return try await BlockingWork.run { [self] () throws(VaultError) in
            try FileLock.withLock(lockFile, exclusive: false) { () throws(VaultError) in
                try readSession(passphrase: passphrase)?.session
            }
        }
    }

    /// Replaces the stored session, keeping the file's salt so the cached key still applies.
    /// - Throws: ``VaultError``; an existing file this passphrase cannot open is left untouched.
    public func save(_ session: Session) async throws(VaultError) {
        let passphrase = try await resolvedPassphrase()
        let plaintext: Data
        do { plaintext = try StoredSession(session).encoded() } catch {
            throw .io(file: file.path, reason: "the session cannot be serialized")
        }
        let parameters = self.parameters
        try await BlockingWork.run { [self] () throws(VaultError) in
            try FileLock.withLock(lockFile, exclusive: true) { () throws(VaultError) in
                let existing = try readSession(passphrase: passphrase)
                PrivateFile.removeLeftovers(of: file)
                let salt = existing?.header.salt ?? VaultCipher.randomBytes(VaultFileHeader.saltSize)
                let used = existing?.header.parameters ?? parameters
                let key = try DerivedKeyCache.shared.key(passphrase: passphrase, salt: salt, parameters: used)
                try PrivateFile.write(try VaultCipher.seal(plaintext, key: key, salt: salt, parameters: used), to: file)
            }
        }
    }

    /// Removes the session file after checking that it opens, so a file that cannot be read is
    /// only ever removed by ``reset()``.
    public func remove() async throws(VaultError) {
        guard fileMayExist else { return }
        let passphrase = try await resolvedPassphrase()
        try await BlockingWork.run { [self] () throws(VaultError) in
            try FileLock.withLock(lockFile, exclusive: true) { () throws(VaultError) in
                _ = try readSession(passphrase: passphrase)
                try PrivateFile.remove(file)
            }
        }
    }

    /// Removes the file whatever its state (`rider vault reset`): the explicit way out of a
    /// forgotten passphrase or a damaged file. Needs no passphrase.
    /// - Returns: whether there was a file.
    @discardableResult
    public func reset() async throws(VaultError) -> Bool {
        try await BlockingWork.run { [self] () throws(VaultError) in
            try FileLock.withLock(lockFile, exclusive: true) { () throws(VaultError) in
                let existed = FileManager.default.fileExists(atPath: file.path)
                try PrivateFile.remove(file)
                return existed
            }
        }
    }

    /// Re-encrypts the file under `newPassphrase` with a fresh salt, atomically: the file opens
    /// with the old passphrase or the new one, never neither.
    /// - Returns: whether there was a session to re-encrypt.
    @discardableResult
    public func changePassphrase(to newPassphrase: String) async throws(VaultError) -> Bool {
        guard !newPassphrase.isEmpty else { throw .passphraseRequired }
        let passphrase = try await resolvedPassphrase()
        let parameters = self.parameters
        let changed = try await BlockingWork.run { [self] () throws(VaultError) -> Bool in
            try FileLock.withLock(lockFile, exclusive: true) { () throws(VaultError) -> Bool in
                guard let existing = try readSession(passphrase: passphrase) else { return false }
                PrivateFile.removeLeftovers(of: file)
                let salt = VaultCipher.randomBytes(VaultFileHeader.saltSize)
                let key = try DerivedKeyCache.shared.key(passphrase: newPassphrase, salt: salt, parameters: parameters)
                try PrivateFile.write(try VaultCipher.seal(existing.plaintext, key: key, salt: salt,
                                                           parameters: parameters), to: file)
                return true
            }
        }
        self.passphrase = newPassphrase
        return changed
    }

    /// False only when nothing is at the path; anything else (a file, a dangling link, an
    /// unreadable folder) goes through the full, locked read and its checks.
    private nonisolated var fileMayExist: Bool {
        var info = stat()
        return lstat(file.path, &info) == 0 || errno != ENOENT
    }

    private func resolvedPassphrase() async throws(VaultError) -> String {
        if let passphrase { return passphrase }
        let obtained = try await passphraseSource.get()
        passphrase = obtained
        return obtained
    }

    /// Reads, authenticates and decodes the file; call with the lock held.
    private nonisolated func readSession(passphrase: String) throws(VaultError)
        -> (session: Session, header: VaultFileHeader, plaintext: Data)?
    {
        guard let data = try PrivateFile.read(file) else { return nil }
        let bytes = Array(data)
        let header = try VaultFileHeader.parse(bytes, file: file.path)
        let key = try DerivedKeyCache.shared.key(passphrase: passphrase, salt: header.salt, parameters: header.parameters)
        guard VaultCipher.keyCheck(for: key) == header.keyCheck else { throw .wrongPassphrase(file: file.path) }
        let plaintext = try VaultCipher.open(bytes, header: header, key: key, file: file.path)
        let stored: StoredSession
        do { stored = try StoredSession.decode(plaintext) } catch {
            throw .corrupted(file: file.path, detail: "it decrypts but holds no session")
        }
        guard stored.version <= StoredSession.currentVersion else {
            throw .unsupportedVersion(file: file.path, version: stored.version)
        }
        return (stored.toDomain(), header, plaintext)
    }
}
