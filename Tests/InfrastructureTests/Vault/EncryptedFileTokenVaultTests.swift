import Foundation
import RiderDomain
import RiderInfrastructure
import Testing

@Suite("Encrypted file token vault (real files)")
struct EncryptedFileTokenVaultTests {
    let session = VaultFixtures.session

    @Test("a saved session reads back unchanged, also from a fresh vault with the same passphrase")
    func roundTrip() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("a/b/session.vault")
        let vault = EncryptedFileTokenVault(file: file, passphrase: .fixed("correct horse"))

        #expect(try await vault.loadSession() == nil)
        try await vault.saveSession(session)
        #expect(try await vault.loadSession() == session)
        #expect(try await EncryptedFileTokenVault(file: file, passphrase: .fixed("correct horse")).loadSession() == session)
    }

    @Test("a session's OpenID identity (email, name, source) is kept with it")
    func identity() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let vault = EncryptedFileTokenVault(file: directory.url.appendingPathComponent("session.vault"),
                                            passphrase: .fixed("correct horse"))
        var withIdentity = session
        withIdentity.identity = AccountIdentity(email: "ana@example.com", name: "Ana", source: .idToken)
        try await vault.saveSession(withIdentity)
        #expect(try await vault.loadSession()?.identity == withIdentity.identity)
    }

    @Test("where the session's tokens may be revoked is kept with it, so a later configuration cannot move it")
    func revocationOrigin() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("session.vault")
        var bound = session
        bound.revocationOrigin = "https://id.example.com"
        try await EncryptedFileTokenVault(file: file, passphrase: .fixed("correct horse")).saveSession(bound)
        let loaded = try await EncryptedFileTokenVault(file: file, passphrase: .fixed("correct horse")).loadSession()
        #expect(loaded?.revocationOrigin == "https://id.example.com")
    }

    @Test("a DPoP-bound session keeps its key with its tokens, encrypted: a process that loads it signs with the same key")
    func proofKey() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("session.vault")
        var bound = session
        let key = Data((0..<32).map { UInt8($0) })
        bound.proofKey = key
        bound.tokenType = "DPoP"
        try await EncryptedFileTokenVault(file: file, passphrase: .fixed("correct horse")).saveSession(bound)
        let loaded = try await EncryptedFileTokenVault(file: file, passphrase: .fixed("correct horse")).loadSession()
        #expect(loaded?.proofKey == key && loaded?.tokenType == "DPoP")
        let raw = try Data(contentsOf: file)
        #expect(raw.range(of: key) == nil && raw.range(of: Data(key.base64EncodedString().utf8)) == nil)
    }

    @Test("the file starts with the documented header and holds no token in the clear")
    func fileFormat() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("session.vault")
        try await EncryptedFileTokenVault(file: file, passphrase: .fixed("pass")).saveSession(session)
        let bytes = try [UInt8](Data(contentsOf: file))

        #expect(Array(bytes[0..<8]) == Array("RIDERVLT".utf8))
        #expect(bytes[8] == 1)    // format version
        #expect(bytes[9] == 1)    // scrypt
        #expect(bytes[10] == 15)  // log2 N
        #expect(Array(bytes[11..<15]) == [0, 0, 0, 8])  // r
        #expect(Array(bytes[15..<19]) == [0, 0, 0, 1])  // p
        #expect(bytes[19] == 1)   // AES-256-GCM
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains("SECRET") && !text.contains("u_000042"))
    }

    @Test("the session file is 0600 and its folder 0700, with no temporary files left behind")
    func permissionsAreOwnerOnly() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("rider/server/session.vault")
        let vault = EncryptedFileTokenVault(file: file, passphrase: .fixed("pass"))

        try await vault.saveSession(session)
        try await vault.saveSession(session)

        #expect(try permissions(of: file) == 0o600)
        #expect(try permissions(of: file.deletingLastPathComponent()) == 0o700)
        let siblings = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        #expect(siblings.sorted() == [".session.vault.lock", "session.vault"])
    }

    @Test("a wrong passphrase is reported as such and leaves the file untouched, even when saving")
    func wrongPassphrase() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("session.vault")
        try await EncryptedFileTokenVault(file: file, passphrase: .fixed("right")).saveSession(session)
        let before = try Data(contentsOf: file)
        let intruder = EncryptedFileTokenVault(file: file, passphrase: .fixed("wrong"))

        await #expect(throws: VaultError.wrongPassphrase(file: file.path)) { try await intruder.load() }
        await #expect(throws: VaultError.wrongPassphrase(file: file.path)) { try await intruder.save(session) }
        await #expect(throws: VaultError.wrongPassphrase(file: file.path)) { try await intruder.remove() }
        await #expect {
            try await intruder.loadSession()
        } throws: { error in
            guard let riderError = error as? RiderError, riderError.code == .storage, case let message = riderError.detail ?? "" else { return false }
            return message.contains(file.path) && message.contains("passphrase") && !message.contains("wrong")
                && riderError.underlying as? VaultError == .wrongPassphrase(file: file.path)
        }
        #expect(try Data(contentsOf: file) == before)
    }

    @Test("a session file others can read is refused and left untouched")
    func refusesLoosePermissions() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("session.vault")
        let vault = EncryptedFileTokenVault(file: file, passphrase: .fixed("pass"))
        try await vault.saveSession(session)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        let before = try Data(contentsOf: file)

        await #expect(throws: VaultError.permissionsTooOpen(file: file.path, mode: 0o644)) { try await vault.load() }
        await #expect(throws: VaultError.permissionsTooOpen(file: file.path, mode: 0o644)) { try await vault.save(session) }
        #expect(VaultError.permissionsTooOpen(file: file.path, mode: 0o644).message.contains("chmod 600"))
        #expect(try Data(contentsOf: file) == before)
    }

    @Test("without a passphrase the vault says one is needed, and its remedy is to give one")
    func passphraseRequired() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let vault = EncryptedFileTokenVault(file: directory.url.appendingPathComponent("session.vault"),
                                            passphrase: .unavailable)
        await #expect(throws: VaultError.passphraseRequired) { try await vault.save(session) }
        #expect(VaultError.passphraseRequired.message.contains("needs a passphrase"))
        #expect(!VaultError.passphraseRequired.message.contains("RIDER_"), "no CLI setting in a library message")
        #expect(VaultError.passphraseRequired.riderError.remedy == .givePassphrase)
    }

    @Test("changing the passphrase re-encrypts: the old one no longer opens the file, the new one does")
    func changePassphrase() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("session.vault")
        let vault = EncryptedFileTokenVault(file: file, passphrase: .fixed("old"))
        try await vault.saveSession(session)
        let oldSalt = try [UInt8](Data(contentsOf: file))[20..<36]

        #expect(try await vault.changePassphrase(to: "new"))
        #expect(try await vault.loadSession() == session)
        #expect(try [UInt8](Data(contentsOf: file))[20..<36] != oldSalt)
        await #expect(throws: VaultError.wrongPassphrase(file: file.path)) {
            try await EncryptedFileTokenVault(file: file, passphrase: .fixed("old")).load()
        }
        #expect(try await EncryptedFileTokenVault(file: file, passphrase: .fixed("new")).load() == session)
    }

    @Test("removing is idempotent, and reset removes a file that no longer opens")
    func removeAndReset() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("session.vault")
        let vault = EncryptedFileTokenVault(file: file, passphrase: .fixed("pass"))
        try await vault.saveSession(session)
        try await vault.removeSession()
        try await vault.removeSession()
        #expect(try await vault.loadSession() == nil)

        try await vault.saveSession(session)
        let stranger = EncryptedFileTokenVault(file: file, passphrase: .fixed("forgotten"))
        #expect(try await stranger.reset())
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(try await stranger.reset() == false)
    }

    @Test("many saves at once from two vaults on the same file leave one whole session")
    func concurrentSaves() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("session.vault")
        let first = EncryptedFileTokenVault(file: file, passphrase: .fixed("pass"))
        let second = EncryptedFileTokenVault(file: file, passphrase: .fixed("pass"))
        try await first.saveSession(session)
        let sessions = (0..<20).map { index in
            Session(accessToken: "access-\(index)", refreshToken: nil, expiresAt: nil,
                    userID: UserID("u_\(index)"), role: nil, issuedAt: Date(timeIntervalSince1970: 0))
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, session) in sessions.enumerated() {
                group.addTask { try await (index.isMultiple(of: 2) ? first : second).saveSession(session) }
                group.addTask { _ = try await (index.isMultiple(of: 2) ? second : first).loadSession() }
            }
            try await group.waitForAll()
        }
        let final = try #require(try await first.loadSession())
        #expect(sessions.contains(final))
    }

    @Test("a passphrase file others can read is refused")
    func passphraseFilePermissions() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let passphraseFile = directory.url.appendingPathComponent("passphrase")
        try Data("from-file\n".utf8).write(to: passphraseFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: passphraseFile.path)
        let source = try #require(VaultPassphrase.environment(["RIDER_VAULT_PASSPHRASE_FILE": passphraseFile.path]))
        await #expect(throws: VaultError.permissionsTooOpen(file: passphraseFile.path, mode: 0o644)) { try await source.get() }

        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passphraseFile.path)
        #expect(try await source.get() == "from-file")
        #expect(try await VaultPassphrase.environment(["RIDER_VAULT_PASSPHRASE": "env"])?.get() == "env")
        #expect(VaultPassphrase.environment([:]) == nil)
    }
}

/// A session whose tokens are easy to spot if they ever leak into a file, message or log.
enum VaultFixtures {
    static let session = Session(
        accessToken: "access-SECRET-a+b/c=", refreshToken: "refresh-SECRET-x/y+z=",
        expiresAt: Date(timeIntervalSince1970: 1_800_000_000), userID: "u_000042", role: .admin,
        issuedAt: Date(timeIntervalSince1970: 1_799_999_000))
}

@Suite("Encrypted file token vault without a file")
struct EncryptedFileWithoutFileTests {
    @Test("with no file, loading and removing need no passphrase; saving does")
    func noFileNoPassphrase() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let vault = EncryptedFileTokenVault(file: directory.url.appendingPathComponent("session.vault"),
                                            passphrase: .unavailable)
        #expect(try await vault.load() == nil)
        try await vault.remove()
        await #expect(throws: VaultError.passphraseRequired) { try await vault.save(VaultFixtures.session) }
    }
}
