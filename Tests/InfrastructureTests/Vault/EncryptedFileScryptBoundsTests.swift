import Foundation
import RiderDomain
@testable import RiderInfrastructure
import Synchronization
import Testing

/// A session file is data from the disk, so a crafted one cannot make unlocking take gigabytes or
/// minutes, and whatever
/// parameters a file was written with, the next save uses the standard ones.
@Suite("Encrypted file token vault: bounded scrypt costs")
struct EncryptedFileScryptBoundsTests {
    /// A file whose header asks for `parameters`, with a checksum that matches, as an attacker
    /// (or a fuzzer) would write it: only the parameter checks stand between it and the KDF.
    private func craftedFile(_ parameters: ScryptParameters, in directory: TemporaryDirectory) throws -> (URL, Data) {
        let header = VaultFileHeader(parameters: parameters, salt: Array(repeating: 7, count: VaultFileHeader.saltSize),
                                     nonce: Array(repeating: 9, count: VaultFileHeader.nonceSize),
                                     keyCheck: Array(repeating: 1, count: 16))
        let data = Data(header.bytes + Array(repeating: 0x2A, count: 40 + VaultFileHeader.tagSize))
        let file = directory.url.appendingPathComponent("session.vault")
        #expect(FileManager.default.createFile(atPath: file.path, contents: data, attributes: [.posixPermissions: 0o600]))
        return (file, data)
    }

    static let tooCostly: [(ScryptParameters, String)] = [
        (ScryptParameters(logN: 20, r: 32, p: 16), "parallelism p = 16"),  // 4 GiB: the issue's example
        (ScryptParameters(logN: 20, r: 8, p: 1), "1024 MiB"),
        (ScryptParameters(logN: 21, r: 2, p: 1), "512 MiB"),
        (ScryptParameters(logN: 18, r: 9, p: 1), "288 MiB"),
        (ScryptParameters(logN: 15, r: 8, p: 5), "parallelism p = 5"),
        (ScryptParameters(logN: 255, r: .max, p: 1), "more than 16 EiB"),
        (ScryptParameters(logN: 63, r: 1, p: 1), "more than 16 EiB"),
        (ScryptParameters(logN: 14, r: 8, p: 1), "below the 2^15"),
        (ScryptParameters(logN: 15, r: 0, p: 1), "block size r is 0"),
        (ScryptParameters(logN: 15, r: 8, p: 0), "parallelism p = 0"),
    ]

    @Test("a crafted header with huge (or too small) scrypt parameters and a valid checksum is refused before the passphrase is asked for",
          arguments: tooCostly)
    func costlyHeaderRefused(parameters: ScryptParameters, detail: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (file, data) = try craftedFile(parameters, in: directory)
        // The key is derived only from a passphrase: one never asked for is a KDF that never ran.
        let asked = Mutex(0)
        let vault = EncryptedFileTokenVault(file: file, passphrase: VaultPassphrase { () throws(VaultError) in
            asked.withLock { $0 += 1 }
            return "pass"
        })

        let error = await #expect(throws: VaultError.self) { try await vault.load() }

        #expect(asked.withLock { $0 } == 0, "the passphrase was asked for, so the KDF would have run")
        guard case .corrupted(let path, let reason)? = error else {
            Issue.record("expected .corrupted, got \(String(describing: error))")
            return
        }
        #expect(path == file.path)
        #expect(reason.contains(detail), "\(reason)")
        await #expect(throws: VaultError.self) { try await vault.save(VaultFixtures.session) }
        #expect(try Data(contentsOf: file) == data, "a refused file is left as it is")
    }

    @Test("the bounds: 128·r·N up to 256 MiB and p up to 4 are accepted, one step beyond is not")
    func bounds() {
        let accepted = [ScryptParameters.standard, ScryptParameters(logN: 21, r: 1, p: 4),
                        ScryptParameters(logN: 18, r: 8, p: 4), ScryptParameters(logN: 15, r: 64, p: 1),
                        ScryptParameters(logN: 16, r: 4, p: 2)]
        for parameters in accepted {
            #expect(parameters.refusal == nil, "\(parameters)")
            #expect(parameters.memory.map { $0 <= 256 << 20 } == true)
            // What the KDF is told it may use covers what BoringSSL needs: the table and p + 1 blocks.
            let needed = 128 * Int(parameters.r) * ((1 << Int(parameters.logN)) + Int(parameters.p) + 1)
            #expect(parameters.memoryLimit >= needed, "\(parameters)")
        }
        #expect(ScryptParameters(logN: 15, r: 65, p: 1).refusal != nil)
        #expect(ScryptParameters(logN: 22, r: 1, p: 1).refusal != nil)
        #expect(ScryptParameters(logN: 18, r: 8, p: 5).refusal != nil)
        #expect(ScryptParameters.standard.memory == 32 << 20)
    }

    @Test("docs/vault.md states the bounds the code enforces")
    func documentedBounds() throws {
        let doc = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../docs/vault.md").standardizedFileURL
        let text = try String(contentsOf: doc, encoding: .utf8)
        let table = text.split(separator: "\n").filter { $0.hasPrefix("| 10 |") || $0.hasPrefix("| 11 |") || $0.hasPrefix("| 15 |") }
        #expect(table.count == 3, "the version 1 header table's scrypt rows")
        #expect(table.contains { $0.contains("`1` (1…\(ScryptParameters.maximumParallelism) accepted)") }, "\(table)")
        #expect(text.contains("N at least 2^\(ScryptParameters.minimumLogN), p from 1 to \(ScryptParameters.maximumParallelism)"))
        #expect(text.contains("128·r·N bytes, at most \(ScryptParameters.maximumMemory >> 20) MiB"))
        // Each example the text gives is accepted or refused as it says.
        #expect(ScryptParameters(logN: 18, r: 8, p: 1).refusal == nil)
        #expect(ScryptParameters(logN: 21, r: 1, p: 1).refusal == nil)
        #expect(ScryptParameters(logN: 20, r: 8, p: 1).refusal != nil)
    }

    @Test("the key derivation itself refuses parameters beyond the bounds, whoever asks")
    func derivationRefuses() {
        #expect(throws: VaultError.self) {
            try VaultCipher.deriveKey(passphrase: "pass", salt: Array(repeating: 0, count: 16),
                                      parameters: ScryptParameters(logN: 20, r: 32, p: 16))
        }
    }

    @Test("a file written with other allowed parameters opens, and the next save re-seals it with the standard ones")
    func resealedWithStandardParameters() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("session.vault")
        // The same 32 MiB as the standard, so the test costs no more, but not the standard.
        let other = ScryptParameters(logN: 16, r: 4, p: 1)
        try await EncryptedFileTokenVault(file: file, passphrase: .fixed("pass"), binding: nil, acceptsUnboundFile: true,
                                          parameters: other).save(VaultFixtures.session)
        let before = try [UInt8](Data(contentsOf: file))
        #expect(try VaultFileHeader.parse(before, file: file.path).parameters == other)

        let vault = EncryptedFileTokenVault(file: file, passphrase: .fixed("pass"))
        #expect(try await vault.load() == VaultFixtures.session, "it opens")
        try await vault.save(VaultFixtures.session)

        let after = try [UInt8](Data(contentsOf: file))
        let header = try VaultFileHeader.parse(after, file: file.path)
        #expect(header.parameters == .standard)
        #expect(Array(after[10..<19]) == [15, 0, 0, 0, 8, 0, 0, 0, 1])
        #expect(header.salt == Array(before[20..<36]), "the salt is kept")
        #expect(try await EncryptedFileTokenVault(file: file, passphrase: .fixed("pass")).load() == VaultFixtures.session)
    }
}
