import Foundation
import RiderDomain
import RiderInfrastructure
import Testing

/// Damage of every kind is reported as a typed error naming the file, and the file is never
/// rewritten or removed because of it.
@Suite("Encrypted file token vault: damaged files")
struct EncryptedFileCorruptionTests {
    /// The boundaries of the documented header fields (docs/vault.md).
    static let headerBoundaries = [0, 4, 8, 9, 10, 11, 15, 19, 20, 36, 48, 64, 72]

    /// Writes a good file and returns it with its bytes.
    private func makeFile(in directory: TemporaryDirectory) async throws -> (URL, [UInt8]) {
        let file = directory.url.appendingPathComponent("session.vault")
        try await EncryptedFileTokenVault(file: file, passphrase: .fixed("pass")).saveSession(VaultFixtures.session)
        return (file, try [UInt8](Data(contentsOf: file)))
    }

    /// Loads `damaged` from `file` and checks the error, and that neither load nor save changed it.
    private func expectRefused(_ damaged: [UInt8], at file: URL,
                               _ matches: (VaultError) -> Bool, _ comment: Comment) async throws {
        try Data(damaged).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        let vault = EncryptedFileTokenVault(file: file, passphrase: .fixed("pass"))
        do {
            let session = try await vault.load()
            Issue.record("\(comment): loaded \(String(describing: session)) instead of failing")
        } catch {
            #expect(matches(error), comment)
            #expect(error.message.contains(file.path), comment)
            #expect(!error.message.contains("SECRET"), comment)
        }
        await #expect(throws: VaultError.self, comment) { try await vault.save(VaultFixtures.session) }
        await #expect(throws: VaultError.self, comment) { try await vault.remove() }
        #expect(try [UInt8](Data(contentsOf: file)) == damaged, comment)
    }

    private static func isCorrupted(_ error: VaultError) -> Bool {
        if case .corrupted = error { return true }
        return false
    }

    @Test("a file cut short at any header boundary, inside the ciphertext or the tag is reported as damaged")
    func truncation() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (file, bytes) = try await makeFile(in: directory)
        let cuts = Self.headerBoundaries + [72 + 1, bytes.count - 16, bytes.count - 8, bytes.count - 1]
        for cut in cuts {
            try await expectRefused(Array(bytes.prefix(cut)), at: file, Self.isCorrupted, "cut at \(cut)")
        }
    }

    @Test("one flipped byte anywhere (header field, ciphertext or tag) is reported as damaged")
    func bitFlips() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (file, bytes) = try await makeFile(in: directory)
        let offsets = [0, 7, 9, 10, 11, 14, 18, 19, 20, 35, 36, 47, 48, 63, 64, 71, 72, bytes.count / 2,
                       bytes.count - 17, bytes.count - 16, bytes.count - 1]
        for offset in offsets {
            var damaged = bytes
            damaged[offset] ^= 0x01
            try await expectRefused(damaged, at: file, Self.isCorrupted, "flip at \(offset)")
        }
    }

    @Test("an unknown format version is reported with its number")
    func unknownVersion() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (file, bytes) = try await makeFile(in: directory)
        var newer = bytes
        newer[8] = 3
        try await expectRefused(newer, at: file, { $0 == .unsupportedVersion(file: file.path, version: 3) }, "version 3")
    }

    @Test("a file that is not a vault at all is reported as damaged")
    func foreignFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("session.vault")
        let json = Array("{\"access_token\": \"SECRET\"}".utf8)
        _ = FileManager.default.createFile(atPath: file.path, contents: Data(json), attributes: [.posixPermissions: 0o600])
        try await expectRefused(json, at: file, Self.isCorrupted, "plain JSON")
    }
}
