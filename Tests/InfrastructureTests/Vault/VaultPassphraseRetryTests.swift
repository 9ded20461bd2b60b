import Foundation
import RiderDomain
import RiderInfrastructure
import Testing

/// A wrong passphrase is never kept: not by the vault, not by the source every vault of a process
/// shares. A person typing gets further tries, as passwd(1) and gpg give; a variable or a program
/// gets the error at once.
@Suite("Encrypted file vault: a wrong passphrase is asked again, never remembered")
struct VaultPassphraseRetryTests {
    let session = VaultFixtures.session

    /// Hands out `answers` in turn (the last one again when they run out), counting the asks and
    /// noting each attempt number it was given.
    private actor Answers {
        private var answers: [String]
        private(set) var attempts: [Int] = []
        init(_ answers: [String]) { self.answers = answers }
        func next(attempt: Int) -> String {
            attempts.append(attempt)
            return answers.count > 1 ? answers.removeFirst() : answers[0]
        }
    }

    /// A file holding `session` under the passphrase "right one".
    private func file(in directory: TemporaryDirectory) async throws -> URL {
        let file = directory.url.appendingPathComponent("session.vault")
        try await EncryptedFileTokenVault(file: file, passphrase: .fixed("right one")).save(session)
        return file
    }

    @Test("a typed passphrase that does not open the file is asked for again, with the next attempt's number")
    func typedIsAskedAgain() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try await file(in: directory)
        let answers = Answers(["typo", "another typo", "right one"])
        let vault = EncryptedFileTokenVault(file: file, passphrase: .typed(attempts: 3) { await answers.next(attempt: $0) })

        #expect(try await vault.load() == session)
        #expect(await answers.attempts == [1, 2, 3])
    }

    @Test("after the last typed attempt the wrong passphrase is reported, the file is unchanged, and nobody is asked again")
    func typedGivesUp() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try await file(in: directory)
        let before = try Data(contentsOf: file)
        let answers = Answers(["typo"])
        let typed = VaultPassphrase.typed(attempts: 3) { await answers.next(attempt: $0) }.remembered()

        await #expect(throws: VaultError.wrongPassphrase(file: file.path)) {
            try await EncryptedFileTokenVault(file: file, passphrase: typed).save(session)
        }
        #expect(await answers.attempts == [1, 2, 3])
        #expect(try Data(contentsOf: file) == before)
        // The person had their tries: another vault of this process fails the same way, asking no more.
        await #expect(throws: VaultError.wrongPassphrase(file: file.path)) {
            try await EncryptedFileTokenVault(file: file, passphrase: typed).load()
        }
        #expect(await answers.attempts == [1, 2, 3])
    }

    @Test("a passphrase from a variable or a program is not asked for again: the error comes at once")
    func givenFailsAtOnce() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try await file(in: directory)
        let answers = Answers(["not it", "right one"])
        let given = VaultPassphrase { await answers.next(attempt: 1) }
        let environment = try #require(VaultPassphrase.environment(["RIDER_VAULT_PASSPHRASE": "not it"]))

        await #expect(throws: VaultError.wrongPassphrase(file: file.path)) {
            try await EncryptedFileTokenVault(file: file, passphrase: given).load()
        }
        #expect(await answers.attempts.count == 1)
        await #expect(throws: VaultError.wrongPassphrase(file: file.path)) {
            try await EncryptedFileTokenVault(file: file, passphrase: environment.orElse(.typed(attempts: 3) { _ in "right one" })).load()
        }
    }

    @Test("a wrong passphrase is not remembered: the next use, by this vault or another sharing the source, asks again")
    func wrongIsNotRemembered() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try await file(in: directory)
        let answers = Answers(["not it", "right one"])
        let shared = VaultPassphrase { await answers.next(attempt: 1) }.remembered()
        let vault = EncryptedFileTokenVault(file: file, passphrase: shared)

        await #expect(throws: VaultError.wrongPassphrase(file: file.path)) { try await vault.load() }
        #expect(try await vault.load() == session, "the vault asked again instead of trying the wrong one")
        #expect(await answers.attempts.count == 2)
        // The right one is what the shared source hands out now, without asking.
        #expect(try await EncryptedFileTokenVault(file: file, passphrase: shared).load() == session)
        #expect(await answers.attempts.count == 2)
    }

    @Test("a wrong passphrase one vault got from the shared source is not handed to the next vault")
    func wrongIsNotShared() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try await file(in: directory)
        let answers = Answers(["not it", "right one"])
        let shared = VaultPassphrase { await answers.next(attempt: 1) }.remembered()

        await #expect(throws: VaultError.wrongPassphrase(file: file.path)) {
            try await EncryptedFileTokenVault(file: file, passphrase: shared).load()
        }
        #expect(try await EncryptedFileTokenVault(file: file, passphrase: shared).load() == session)
        #expect(await answers.attempts.count == 2)
    }
}
