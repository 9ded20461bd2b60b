import Foundation
import RiderDomain
@testable import RiderInfrastructure
import Testing

/// The encrypted file's unlock kept in the real kernel keyring (`@u`): a second vault, as a later
/// process would be, opens the file with no passphrase; the key expires, is forgotten by
/// `forgetAll`, and never replaces a passphrase this process knows. The same across real
/// processes, and with keyctl refused, is in the end-to-end `VaultUnlockTests`.
@Suite("Encrypted file unlock kept in the kernel keyring", .serialized)
struct VaultUnlockRetentionTests {
    let session = VaultFixtures.session
    let binding = SessionBinding(apiOrigin: "http://127.0.0.1:8080")
    /// Keys of this test alone: `rider vault lock` in a test running meanwhile does not reach them.
    let prefix = "rider-vault-test-\(UUID().uuidString):"

    /// A passphrase source that fails the test if anyone asks it.
    static let neverAsked = VaultPassphrase { () throws(VaultError) in
        Issue.record("the passphrase was asked for although the unlock was kept")
        throw .passphraseRequired
    }

    private func vault(_ file: URL, _ passphrase: VaultPassphrase, _ retention: VaultUnlockRetention)
        -> EncryptedFileTokenVault
    {
        EncryptedFileTokenVault(file: file, passphrase: passphrase, binding: binding,
                                unlockRetention: retention.keyed(under: prefix))
    }

    @Test("this machine's kernel keyring answers (else every other test here would prove nothing)")
    func keyringAnswers() {
        #expect(VaultUnlockRetention.availability == .available)
    }

    @Test("after one unlock, a new vault on the file reads, writes and removes without a passphrase")
    func keptAcrossVaults() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("session.vault")
        let kept = VaultUnlockRetention.kernelKeyring(timeout: .seconds(60))
        try await vault(file, .fixed("correct horse"), kept).save(session)

        let later = vault(file, Self.neverAsked, kept)
        #expect(try await later.load() == session)
        var renewed = session
        renewed.accessToken = "access-SECRET-renewed"
        try await later.save(renewed)
        #expect(try await vault(file, .fixed("correct horse"), .process).load() == renewed)
        try await later.remove()
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("a vault that keeps nothing still asks: .process, and a zero timeout")
    func processOnly() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("session.vault")
        try await vault(file, .fixed("pw"), .kernelKeyring(timeout: .zero)).save(session)
        #expect(VaultUnlockRetention.kernelKeyring(timeout: .zero) == .process)
        await #expect(throws: VaultError.passphraseRequired) {
            try await vault(file, .unavailable, .kernelKeyring(timeout: .seconds(60))).load()
        }
        // Kept now; a vault that does not use the kernel keyring still needs the passphrase.
        try await vault(file, .fixed("pw"), .kernelKeyring(timeout: .seconds(60))).save(session)
        await #expect(throws: VaultError.passphraseRequired) { try await vault(file, .unavailable, .process).load() }
    }

    @Test("the kept key expires with its timeout")
    func expires() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("session.vault")
        let kept = VaultUnlockRetention.kernelKeyring(timeout: .seconds(60))
        try await vault(file, .fixed("pw"), kept).save(session)
        #expect(try await vault(file, Self.neverAsked, kept).load() == session)

        // The same key kept again as an unlock with the kernel's shortest timeout (whole seconds)
        // keeps it; then the kernel's expiry is waited for, not slept past: a key kept longer
        // than its timeout fails the deadline.
        let header = try VaultFileHeader.parse(Array(Data(contentsOf: file)), file: file.path)
        let key = try #require(kept.keyed(under: prefix).keptKey(salt: header.salt, parameters: header.parameters))
        let brief = VaultUnlockRetention.kernelKeyring(timeout: .seconds(1))
        brief.keyed(under: prefix).keep(key, salt: header.salt, parameters: header.parameters)
        let deadline = ContinuousClock.now + .seconds(20)
        while brief.keyed(under: prefix).keptKey(salt: header.salt, parameters: header.parameters) != nil {
            try #require(ContinuousClock.now < deadline, "a key kept for 1 s was still there after 20 s")
            try await Task.sleep(for: .milliseconds(20))
        }
        await #expect(throws: VaultError.passphraseRequired) { try await vault(file, .unavailable, brief).load() }
    }

    @Test("forgetAll (rider vault lock) forgets every key kept under its prefix at once, and no other")
    func forgetAll() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let kept = VaultUnlockRetention.kernelKeyring(timeout: .seconds(60))
        let files = ["a.vault", "b.vault"].map { directory.url.appendingPathComponent($0) }
        for file in files { try await vault(file, .fixed("pw"), kept).save(session) }
        for file in files { #expect(try await vault(file, Self.neverAsked, kept).load() == session) }

        #expect(try kept.keyed(under: prefix).forgetAll() == 2)
        for file in files {
            await #expect(throws: VaultError.passphraseRequired) { try await vault(file, .unavailable, kept).load() }
        }
    }

    @Test("a passphrase known in this process is checked, kept key or not: a wrong one is refused")
    func knownPassphraseIsChecked() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("session.vault")
        let kept = VaultUnlockRetention.kernelKeyring(timeout: .seconds(60))
        let writer = vault(file, .fixed("right"), kept)
        try await writer.save(session)
        // The second vault is first opened by the kept key, then told a wrong passphrase.
        let reader = vault(file, .fixed("wrong"), kept)
        #expect(try await reader.load() == session)
        await #expect(throws: VaultError.wrongPassphrase(file: file.path)) {
            try await reader.changePassphrase(to: "newer")
        }
        #expect(try await vault(file, .fixed("right"), .process).load() == session)
    }

    @Test("a new passphrase replaces the kept key: the old key opens nothing, the new one opens the file")
    func changedPassphrase() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("session.vault")
        let kept = VaultUnlockRetention.kernelKeyring(timeout: .seconds(60))
        try await vault(file, .fixed("old"), kept).save(session)
        #expect(try await vault(file, .fixed("old"), kept).changePassphrase(to: "new"))
        #expect(try await vault(file, Self.neverAsked, kept).load() == session)
        await #expect(throws: VaultError.wrongPassphrase(file: file.path)) {
            try await vault(file, .fixed("old"), .process).load()
        }
    }

    @Test("the key kept for a file is not readable under another file's name, and no file holds it")
    func keyIsPerFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let kept = VaultUnlockRetention.kernelKeyring(timeout: .seconds(60))
        let first = directory.url.appendingPathComponent("first.vault")
        let second = directory.url.appendingPathComponent("second.vault")
        try await vault(first, .fixed("pw"), kept).save(session)
        // A file written with a key derived elsewhere: its own salt, so the first file's key is no use.
        try await vault(second, .fixed("pw"), .process).save(session)
        await #expect(throws: VaultError.passphraseRequired) { try await vault(second, .unavailable, kept).load() }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
        #expect(names == [".first.vault.lock", ".second.vault.lock", "first.vault", "second.vault"])
    }
}
