import Foundation
import Logging
import RiderDomain
import RiderInfrastructure

/// What ``AutomaticTokenVault`` needs of a keyring: the vault itself, and a probe that says
/// whether it answers, unlocked. `SecretServiceTokenVault` is the one RiderKit ships; the seam
/// lets tests put a keyring that refuses or stalls writes in front of a real encrypted file.
package protocol ProbedKeyring: TokenVault {
    /// The bound on each keyring call.
    var timeout: Duration { get }
    /// The name of the collection the session goes to, when the keyring answers and it is unlocked.
    func checkAvailable() async throws(VaultError) -> String
}

extension SecretServiceTokenVault: ProbedKeyring {}

/// ``VaultChoice/automatic``: the desktop keyring when it answers, unlocked, within its timeout;
/// otherwise the encrypted file. Decided once, on first use, and logged at info level with the
/// reason, so a fallback is never silent.
///
/// A session is never lost to a keyring that fails a write. Once the server has rotated the
/// refresh token, the old one is retired (and presenting it again may end the whole sign-in,
/// RFC 9700 §4.14.2), so a save the keyring refuses — after `SecretServiceTokenVault`'s own
/// bounded retries — goes to the encrypted file instead, with a warning, and a marker file
/// beside it (`session.vault.newer-than-keyring`) records that the file now holds the newer
/// session. While the marker is there the file is read first, `rider vault status` says why,
/// and every save tries the keyring again: the first that succeeds moves the session back and
/// removes the file and the marker.
package actor AutomaticTokenVault: TokenVault {
    /// The keyring this vault prefers.
    package nonisolated let keyring: any ProbedKeyring
    /// The fallback.
    package nonisolated let file: EncryptedFileTokenVault
    private let logger: Logger?
    private let warnings: Logger?
    private var selection: VaultSelection?
    /// The keyring's collection when it answered the probe (unlocked); only then is it worth
    /// trying it again.
    private var answeringCollection: String?
    private var keyringAnswers: Bool { answeringCollection != nil }

    /// - Parameters:
    ///   - keyring: tried first.
    ///   - file: used when the keyring is unavailable, locked or too slow, or refuses a save.
    ///   - logger: receives one info line saying which backend was chosen and why.
    ///   - warnings: told when a save the keyring refused went to the file instead.
    package init(keyring: SecretServiceTokenVault, file: EncryptedFileTokenVault, logger: Logger? = nil,
                warnings: Logger? = nil) {
        self.init(probing: keyring, file: file, logger: logger, warnings: warnings)
    }

    /// The same over any keyring (tests).
    package init(probing keyring: any ProbedKeyring, file: EncryptedFileTokenVault, logger: Logger? = nil,
                 warnings: Logger? = nil) {
        self.keyring = keyring
        self.file = file
        self.logger = logger
        self.warnings = warnings
    }

    package nonisolated var location: String {
        "automatic: \(keyring.location) when it answers within \(keyring.timeout), else \(file.location)"
    }

    /// Beside the encrypted file: present while the file holds a newer session than the keyring.
    /// It holds no secret, only when and why the keyring refused the save.
    package nonisolated var newerThanKeyringMarker: URL {
        URL(fileURLWithPath: file.file.path + ".newer-than-keyring")
    }

    /// Probes the keyring (once) and returns the backend in use and why.
    package func select() async -> VaultSelection {
        if let selection { return selection }
        let chosen: VaultSelection
        do {
            let collection = try await keyring.checkAvailable()
            answeringCollection = collection
            if let refusal = pendingRefusal() {
                chosen = VaultSelection(backend: .encryptedFile(nil), reason: "the Secret Service answers, but it did "
                    + "not take the last save (\(refusal)), so the session is in the encrypted file until a save "
                    + "to the keyring succeeds", vault: file)
            } else {
                chosen = keyringSelection(collection: collection)
            }
        } catch {
            chosen = VaultSelection(backend: .encryptedFile(nil),
                                    reason: "falling back to the encrypted file: \(error.message)", vault: file)
        }
        selection = chosen
        logger?.info("vault: using \(chosen.backend.name): \(chosen.reason)")
        return chosen
    }

    package func loadSession() async throws -> Session? {
        try await select().vault.loadSession()
    }

    /// Saves to the keyring when it answered, else to the encrypted file.
    /// - Throws: `RiderError.storage(_:)` only when neither the keyring nor the encrypted file
    ///   took the session; both causes are in the message.
    package func saveSession(_ session: Session) async throws {
        let selected = await select()
        guard keyringAnswers else { return try await file.saveSession(session) }
        do {
            try await keyring.saveSession(session)
        } catch {
            return try await fallBack(session, because: error)
        }
        if case .encryptedFile = selected.backend { await moveBack() }
    }

    /// Removes the session from the backend in use; while the file holds the newer session, from
    /// the keyring too (its copy is retired), and the marker goes only once both are gone.
    package func removeSession() async throws {
        let selected = await select()
        guard case .encryptedFile = selected.backend, keyringAnswers else {
            return try await selected.vault.removeSession()
        }
        try await file.removeSession()
        do {
            try await keyring.removeSession()
        } catch {
            // The keyring's copy is retired anyway. The marker stays, so it is not read as the
            // session; the next save that reaches the keyring replaces it and removes the marker.
            return
        }
        try removeMarker()
    }

    // MARK: - The fallback

    /// The keyring refused `session` for good: the file takes it, and the marker says so.
    private func fallBack(_ session: Session, because keyringError: any Error) async throws {
        let cause = Self.message(of: keyringError)
        do {
            try await file.saveSession(session)
        } catch {
            throw RiderError.storage("neither the keyring nor the encrypted file took the session: \(cause); "
                + "and \(Self.message(of: error))", underlying: error)
        }
        do {
            let stamp = ISO8601DateFormatter().string(from: Date())
            try PrivateFile.write(Data("\(stamp): \(cause)\n".utf8), to: newerThanKeyringMarker)
        } catch {
            // Without the marker the keyring's older session would be read first next time.
            throw RiderError.storage("the keyring refused the session (\(cause)); it was saved to the encrypted "
                + "file \(file.file.path), but \(newerThanKeyringMarker.path) could not be written to say so "
                + "(\(error.message)): run `rider vault migrate --to secret-service` once the keyring works",
                underlying: error)
        }
        selection = VaultSelection(backend: .encryptedFile(nil), reason: "the keyring did not take the last save "
            + "(\(cause)), so the session is in the encrypted file until a save to the keyring succeeds", vault: file)
        let warning = "the keyring did not take the session (\(cause)); it was saved to the encrypted file "
            + "\(file.file.path) instead and moves back to the keyring on the next save that succeeds"
        warnings?.warning("\(warning)")
    }

    /// The keyring took a save while the file held the newer session: the keyring is current again.
    private func moveBack() async {
        // The marker goes first: from then on the keyring is read, and it holds the newest session.
        do { try removeMarker() } catch { return }
        do {
            try await file.removeSession()
        } catch {
            // Harmless: a stale file is only pointed out (`rider vault migrate`), never read first.
        }
        // The probe already named the collection: no second round trip to the keyring.
        selection = keyringSelection(collection: answeringCollection ?? "default")
        logger?.info("vault: the session is back in the keyring")
    }

    private func keyringSelection(collection: String) -> VaultSelection {
        var reason = "the Secret Service answered and its keyring \"\(collection)\" is unlocked"
        // A session saved to the file while no keyring was around is not used silently, nor lost.
        if FileManager.default.fileExists(atPath: file.file.path) {
            reason += "; an encrypted session file also exists at \(file.file.path): move it into the "
                + "keyring with `rider vault migrate --to secret-service`"
        }
        return VaultSelection(backend: .secretService, reason: reason, vault: keyring)
    }

    /// When and why the keyring refused the save the file holds, or `nil` with no marker.
    private nonisolated func pendingRefusal() -> String? {
        guard FileManager.default.fileExists(atPath: newerThanKeyringMarker.path) else { return nil }
        // Present is what counts; what it says is only shown, so a marker that cannot be read still counts.
        let data = (try? PrivateFile.read(newerThanKeyringMarker, checkingFolder: false)) ?? nil
        let text = data.map { String(decoding: $0.prefix(500), as: UTF8.self) }?
            .split(separator: "\n").first.map(String.init) ?? ""
        return text.isEmpty ? "at an unknown time" : text
    }

    private func removeMarker() throws {
        guard unlink(newerThanKeyringMarker.path) == 0 || errno == ENOENT else {
            throw RiderError.storage("cannot remove \(newerThanKeyringMarker.path): \(String(cString: strerror(errno)))")
        }
    }

    private static func message(of error: any Error) -> String {
        if let error = error as? VaultError { return error.message }
        if let error = error as? RiderError, error.code == .storage, let what = error.detail { return what }
        return (error as? any LocalizedError)?.errorDescription ?? "\(type(of: error))"
    }
}
