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
///
/// With ``VaultUnlockRetention/kernelKeyring(timeout:)`` the derived key outlives the process
/// in the kernel keyring, so the user's next processes open the file without a passphrase or
/// scrypt until the timeout (``init(file:passphrase:binding:acceptsUnboundFile:unlockRetention:)``).
///
/// Each file belongs to one server (``SessionBinding``), written in the clear after the header and
/// authenticated with it: a file holding another server's session is refused before any
/// passphrase is asked for, so a changed server setting never sends one server's tokens to another.
public actor EncryptedFileTokenVault: TokenVault {
    /// The encrypted session file.
    public nonisolated let file: URL
    /// The server whose session this vault keeps; `nil` only for tools that handle a file of
    /// any server themselves.
    package nonisolated let binding: SessionBinding?
    /// Whether a file written before sessions were bound is taken as ``binding``'s.
    package nonisolated let acceptsUnboundFile: Bool
    private let passphraseSource: VaultPassphrase
    private var passphrase: String?
    private let parameters: ScryptParameters
    /// Whether the derived key outlives the process (the kernel keyring).
    package nonisolated let unlockRetention: VaultUnlockRetention

    /// - Parameters:
    ///   - file: where the session lives, e.g. ``defaultFile(forOrigin:in:)``.
    ///   - passphrase: where the passphrase comes from; asked for on first use only.
    ///   - binding: the server whose session this file keeps; a file bound to another server is
    ///     refused with ``VaultError/boundToAnotherServer(location:stored:requested:)``.
    ///   - acceptsUnboundFile: whether a file written by a RiderKit that did not yet record the
    ///     server is taken as `binding`'s (and bound on its next save). Pass `true` only where the
    ///     file's location already names the server, as ``defaultFile(forOrigin:in:)`` does; any
    ///     other such file is refused with ``VaultError/unboundSession(file:requested:)`` until
    ///     ``adopt()`` binds it.
    public init(file: URL, passphrase: VaultPassphrase, binding: SessionBinding, acceptsUnboundFile: Bool = false) {
        self.init(file: file, passphrase: passphrase, binding: binding, acceptsUnboundFile: acceptsUnboundFile,
                  parameters: .standard)
    }

    /// A vault whose unlock may outlive the process: with
    /// ``VaultUnlockRetention/kernelKeyring(timeout:)``, a file this user unlocked within the
    /// timeout opens without asking for the passphrase (or reading it from the environment), and
    /// without running scrypt. A passphrase already obtained in this process is always checked.
    /// - Parameters:
    ///   - file: where the session lives, e.g. ``defaultFile(forOrigin:in:)``.
    ///   - passphrase: where the passphrase comes from; asked for when no kept key opens the file.
    ///   - binding: the server whose session this file keeps.
    ///   - acceptsUnboundFile: as in ``init(file:passphrase:binding:acceptsUnboundFile:)``.
    ///   - unlockRetention: how long an unlock lasts.
    public init(file: URL, passphrase: VaultPassphrase, binding: SessionBinding, acceptsUnboundFile: Bool = false,
                unlockRetention: VaultUnlockRetention) {
        self.init(file: file, passphrase: passphrase, binding: binding, acceptsUnboundFile: acceptsUnboundFile,
                  parameters: .standard, unlockRetention: unlockRetention)
    }

    /// A vault that reads a file of any server and writes it unbound: for tests and tools that
    /// manage one file themselves, never for a configured server.
    package init(file: URL, passphrase: VaultPassphrase) {
        self.init(file: file, passphrase: passphrase, binding: nil, acceptsUnboundFile: true, parameters: .standard)
    }

    init(file: URL, passphrase: VaultPassphrase, binding: SessionBinding?, acceptsUnboundFile: Bool,
         parameters: ScryptParameters, unlockRetention: VaultUnlockRetention = .process) {
        self.unlockRetention = unlockRetention
        self.file = file
        self.binding = binding
        self.acceptsUnboundFile = acceptsUnboundFile
        self.passphraseSource = passphrase
        self.parameters = parameters
    }

    /// `$XDG_STATE_HOME/rider/<server>/session.vault`.
    package static func defaultFile(forOrigin origin: String, in directories: XDGDirectories) -> URL {
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
    package func load() async throws(VaultError) -> Session? {
        // No file, no session: not a reason to ask anyone for a passphrase.
        guard fileMayExist else { return nil }
        return try await unlocked(exclusive: false) { [self] passphrase throws(VaultError) in
            try readSession(passphrase: passphrase)?.session
        }
    }

    /// Replaces the stored session, keeping the file's salt so the cached key still applies.
    /// - Throws: ``VaultError``; an existing file this passphrase cannot open is left untouched.
    package func save(_ session: Session) async throws(VaultError) {
        let parameters = self.parameters
        try await unlocked(exclusive: true) { [self] passphrase throws(VaultError) in
            let existing = try readSession(passphrase: passphrase)
            // A bound vault only gets here for its own server's file (or an unbound one it
            // may take); a tool's unbound vault keeps whatever binding the file had.
            let binding = binding ?? existing?.header.binding
            let plaintext: Data
            do { plaintext = try StoredSession(session, binding: binding).encoded() } catch {
                throw .io(file: file.path, reason: "the session cannot be serialized")
            }
            let salt = existing?.header.salt ?? VaultCipher.randomBytes(VaultFileHeader.saltSize)
            // Always the standard parameters, never the file's: a file that asked for other
            // (allowed) ones is re-sealed with a key derived for the standard ones.
            let used = parameters
            let key: SymmetricKey
            if let existing, existing.header.parameters == used {
                key = existing.key
            } else {
                // A new file, or new parameters: only the passphrase makes its key.
                guard let passphrase else { throw .passphraseRequired }
                key = try DerivedKeyCache.shared.key(passphrase: passphrase, salt: salt, parameters: used)
                unlockRetention.keep(key, salt: salt, parameters: used)
            }
            PrivateFile.removeLeftovers(of: file)
            try PrivateFile.write(try VaultCipher.seal(plaintext, key: key, salt: salt, parameters: used,
                                                       binding: binding), to: file)
        }
    }

    /// Removes the session file after checking that it opens, so a file that cannot be read is
    /// only ever removed by ``reset()``.
    package func remove() async throws(VaultError) {
        guard fileMayExist else { return }
        try await unlocked(exclusive: true) { [self] passphrase throws(VaultError) in
            let existing = try readSession(passphrase: passphrase)
            try PrivateFile.remove(file)
            if let header = existing?.header { unlockRetention.forget(salt: header.salt, parameters: header.parameters) }
        }
    }

    /// Removes the file whatever its state (`rider vault reset`): the explicit way out of a
    /// forgotten passphrase or a damaged file. Needs no passphrase.
    /// - Returns: whether there was a file.
    @discardableResult
    package func reset() async throws(VaultError) -> Bool {
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
    package func changePassphrase(to newPassphrase: String) async throws(VaultError) -> Bool {
        guard !newPassphrase.isEmpty else { throw .passphraseRequired }
        let parameters = self.parameters
        let changed = try await withPassphrase { [self] passphrase async throws(VaultError) -> Bool in
            try await BlockingWork.run { [self] () throws(VaultError) -> Bool in
                try FileLock.withLock(lockFile, exclusive: true) { () throws(VaultError) -> Bool in
                    guard let existing = try readSession(passphrase: passphrase) else { return false }
                    PrivateFile.removeLeftovers(of: file)
                    let salt = VaultCipher.randomBytes(VaultFileHeader.saltSize)
                    let key = try DerivedKeyCache.shared.key(passphrase: newPassphrase, salt: salt, parameters: parameters)
                    try PrivateFile.write(try VaultCipher.seal(existing.plaintext, key: key, salt: salt,
                                                               parameters: parameters,
                                                               binding: existing.header.binding ?? binding), to: file)
                    // The old key opens nothing now; the new one is kept as a new unlock would be.
                    unlockRetention.forget(salt: existing.header.salt, parameters: existing.header.parameters)
                    unlockRetention.keep(key, salt: salt, parameters: parameters)
                    return true
                }
            }
        }
        self.passphrase = newPassphrase
        return changed
    }

    /// Binds a file written before sessions recorded their server to this vault's server: the
    /// explicit step (`rider vault adopt`) for a file at a path the configuration names, whose
    /// server RiderKit cannot know. A file already bound to this server is left as it is.
    /// - Returns: whether the file was rewritten.
    /// - Throws: ``VaultError``; a file bound to another server is refused and left untouched.
    @discardableResult
    package func adopt() async throws(VaultError) -> Bool {
        guard let binding else { return false }
        guard fileMayExist else { return false }
        return try await unlocked(exclusive: true) { [self] passphrase throws(VaultError) -> Bool in
            guard let existing = try readSession(passphrase: passphrase, adopting: true),
                  existing.header.binding == nil
            else { return false }
            PrivateFile.removeLeftovers(of: file)
            let header = existing.header
            let key = existing.key
            let plaintext: Data
            do { plaintext = try StoredSession(existing.session, binding: binding).encoded() } catch {
                throw .io(file: file.path, reason: "the session cannot be serialized")
            }
            try PrivateFile.write(try VaultCipher.seal(plaintext, key: key, salt: header.salt,
                                                       parameters: header.parameters, binding: binding), to: file)
            return true
        }
    }

    /// The server the file says it belongs to, without a passphrase: `nil` when there is no file
    /// or it was written before sessions were bound.
    /// - Throws: ``VaultError`` when the file cannot be read or its header is damaged.
    package func storedBinding() async throws(VaultError) -> SessionBinding? {
        guard fileMayExist else { return nil }
        return try await BlockingWork.run { [self] () throws(VaultError) in
            try FileLock.withLock(lockFile, exclusive: false) { () throws(VaultError) in
                guard let data = try PrivateFile.read(file) else { return nil }
                return try VaultFileHeader.parse(Array(data), file: file.path).binding
            }
        }
    }

    /// Runs `body` under the file's lock, off the cooperative pool, with the passphrase when it
    /// is known. While it is not, `body` runs first without it: a damaged or costly header, or
    /// another server's file, is then refused before anyone is asked for a passphrase and before
    /// any key is derived, and a key kept in the kernel keyring may open the file with no
    /// passphrase at all. Only when `body` needs one (``VaultError/passphraseRequired``) is it
    /// obtained, and `body` runs again.
    private func unlocked<T: Sendable>(exclusive: Bool,
                                       _ body: @escaping @Sendable (String?) throws(VaultError) -> T)
        async throws(VaultError) -> T
    {
        let lockFile = self.lockFile
        if passphrase == nil {
            do throws(VaultError) {
                return try await BlockingWork.run { () throws(VaultError) in
                    try FileLock.withLock(lockFile, exclusive: exclusive) { () throws(VaultError) in try body(nil) }
                }
            } catch {
                guard case .passphraseRequired = error else { throw error }
            }
        }
        return try await withPassphrase { passphrase async throws(VaultError) in
            try await BlockingWork.run { () throws(VaultError) in
                try FileLock.withLock(lockFile, exclusive: exclusive) { () throws(VaultError) in try body(passphrase) }
            }
        }
    }

    /// Runs `body` with the passphrase, obtaining it when it is not known yet. A passphrase that
    /// does not open the file (``VaultError/wrongPassphrase(file:)``) is never kept, here or by
    /// the source; a source a person types into is asked again, as often as it allows.
    private func withPassphrase<T: Sendable>(_ body: (String) async throws(VaultError) -> T) async throws(VaultError) -> T {
        var attempt = 1
        while true {
            // A passphrase this vault already holds opened the file before; one from the source is new.
            let known = passphrase
            let answer: VaultPassphrase.Answer
            if let known {
                answer = VaultPassphrase.Answer(passphrase: known, mayAskAgain: false)
            } else {
                answer = try await passphraseSource.answer(attempt: attempt)
            }
            passphrase = answer.passphrase
            do throws(VaultError) {
                return try await body(answer.passphrase)
            } catch {
                guard case .wrongPassphrase = error else { throw error }
                if passphrase == answer.passphrase { passphrase = nil }
                await passphraseSource.reject(answer.passphrase,
                                              gaveUp: known == nil && !answer.mayAskAgain ? error : nil)
                guard answer.mayAskAgain else { throw error }
                attempt += 1
            }
        }
    }

    /// Refuses a file that belongs to another server, or an unbound one where its location does
    /// not say whose it is (unless `adopting`: the person has said it is this server's).
    private nonisolated func checkBinding(of header: VaultFileHeader, adopting: Bool) throws(VaultError) {
        guard let binding else { return }
        if let stored = header.binding {
            guard stored == binding else {
                throw .boundToAnotherServer(location: file.path, stored: stored.description,
                                            requested: binding.description)
            }
        } else if !acceptsUnboundFile && !adopting {
            throw .unboundSession(file: file.path, requested: binding.description)
        }
    }

    /// False only when nothing is at the path; anything else (a file, a dangling link, an
    /// unreadable folder) goes through the full, locked read and its checks.
    private nonisolated var fileMayExist: Bool {
        var info = stat()
        return lstat(file.path, &info) == 0 || errno != ENOENT
    }

    /// Reads, authenticates and decodes the file; call with the lock held. Without a passphrase
    /// only a key kept in the kernel keyring can open it; ``VaultError/passphraseRequired`` says
    /// the passphrase is needed.
    private nonisolated func readSession(passphrase: String?, adopting: Bool = false) throws(VaultError)
        -> (session: Session, header: VaultFileHeader, plaintext: Data, key: SymmetricKey)?
    {
        guard let data = try PrivateFile.read(file) else { return nil }
        let bytes = Array(data)
        let header = try VaultFileHeader.parse(bytes, file: file.path)
        try checkBinding(of: header, adopting: adopting)
        let key = try key(for: header, passphrase: passphrase)
        let plaintext = try VaultCipher.open(bytes, header: header, key: key, file: file.path)
        let stored: StoredSession
        do { stored = try StoredSession.decode(plaintext) } catch {
            throw .corrupted(file: file.path, detail: "it decrypts but holds no session")
        }
        guard stored.version <= StoredSession.currentVersion else {
            throw .unsupportedVersion(file: file.path, version: stored.version)
        }
        // Both are authenticated; a disagreement means a bug or a forged file, never a session to use.
        if let inner = stored.binding, inner != header.binding {
            throw .corrupted(file: file.path, detail: "its server binding does not match its contents")
        }
        return (stored.toDomain(), header, plaintext, key)
    }

    /// The file's key: the one kept in the kernel keyring while no passphrase is known in this
    /// process, else derived from the passphrase (and then kept, when the retention says so).
    private nonisolated func key(for header: VaultFileHeader, passphrase: String?) throws(VaultError) -> SymmetricKey {
        guard let passphrase else {
            if let kept = unlockRetention.keptKey(salt: header.salt, parameters: header.parameters),
               VaultCipher.keyCheck(for: kept) == header.keyCheck {
                return kept
            }
            throw .passphraseRequired
        }
        var derived = false
        let key = try DerivedKeyCache.shared.key(passphrase: passphrase, salt: header.salt,
                                                 parameters: header.parameters) { _ in derived = true }
        guard VaultCipher.keyCheck(for: key) == header.keyCheck else { throw .wrongPassphrase(file: file.path) }
        // Kept when scrypt has just run: a person typed the passphrase, or a program passed it.
        if derived { unlockRetention.keep(key, salt: header.salt, parameters: header.parameters) }
        return key
    }
}
