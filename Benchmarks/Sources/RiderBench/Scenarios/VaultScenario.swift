import Crypto
import Foundation
import RiderKit
import _CryptoExtras

/// The two vaults: the encrypted file (scrypt, then AES-GCM) and the Secret Service keyring.
struct VaultScenario {
    var unlocks = 10
    var reads = 500
    var keyringRoundTrips = 100

    static let smoke = VaultScenario(unlocks: 2, reads: 10, keyringRoundTrips: 5)

    /// The parameters the vault writes (VaultFileHeader's defaults): N = 2^15, r = 8, p = 1.
    private static let scryptRounds = 1 << 15

    func run() async throws -> ScenarioReport {
        var report = ScenarioReport(
            scenario: "Vault",
            floorDescription: "swift-crypto's scrypt alone with the vault's parameters; reading the file's bytes")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rider-bench-vault-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = Session(accessToken: "bench-access-token", refreshToken: "bench-refresh-token",
                              expiresAt: Date().addingTimeInterval(3_600), userID: UserID("u_000000"), role: .user,
                              issuedAt: Date())

        // A new file per sample: a new salt, so every save derives its key afresh.
        var firstSave = Measurement(samples: []), bareKDF = Measurement(samples: [])
        var vaults: [EncryptedFileTokenVault] = []
        for index in 0..<unlocks {
            let vault = EncryptedFileTokenVault(file: folder.appendingPathComponent("session-\(index).vault"),
                                                passphrase: .fixed("bench passphrase \(index)"))
            firstSave.samples.append(try await Measurement.time { try await vault.saveSession(session) })
            vaults.append(vault)
            let salt = (0..<16).map { _ in UInt8.random(in: 0...255) }
            bareKDF.samples.append(try Measurement.time {
                _ = try KDF.Scrypt.deriveKey(from: Array("bench passphrase \(index)".utf8), salt: salt, outputByteCount: 32,
                                             rounds: Self.scryptRounds, blockSize: 8, parallelism: 1)
            })
        }
        report.rows.append(ReportRow(name: "encrypted file: save to a new file (scrypt + AES-GCM + fsync) p50",
                                     riderKit: firstSave.p50, floor: bareKDF.p50, unit: "ms"))

        // Reads after the unlock: the derived key is kept, so no KDF again.
        var read = Measurement(samples: []), bytes = Measurement(samples: [])
        guard let vault = vaults.first else { throw BenchFailure("no vault") }
        let file = folder.appendingPathComponent("session-0.vault")
        for _ in 0..<reads {
            read.samples.append(try await Measurement.time {
                guard try await vault.loadSession() != nil else { throw BenchFailure("the session is gone") }
            })
            bytes.samples.append(try Measurement.time { _ = try Data(contentsOf: file) })
        }
        report.rows.append(ReportRow(name: "encrypted file: session read after unlock p50 (no KDF)",
                                     riderKit: read.p50, floor: bytes.p50, unit: "ms"))
        report.check("a read after unlock does not run the KDF again", read.p50 * 10 < bareKDF.p50,
                     String(format: "read p50 %.3f ms vs scrypt p50 %.1f ms", read.p50, bareKDF.p50))

        if ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil {
            let keyring = SecretServiceTokenVault(service: "rider-bench-\(UUID().uuidString)", timeout: .seconds(10))
            var roundTrip = Measurement(samples: [])
            for _ in 0..<keyringRoundTrips {
                roundTrip.samples.append(try await Measurement.time {
                    try await keyring.saveSession(session)
                    guard try await keyring.loadSession() != nil else { throw BenchFailure("the keyring lost the session") }
                })
            }
            try await keyring.removeSession()
            report.rows.append(ReportRow(name: "Secret Service (gnome-keyring): store + lookup p50", riderKit: roundTrip.p50,
                                         floor: nil, unit: "ms"))
            report.rows.append(ReportRow(name: "Secret Service (gnome-keyring): store + lookup p99", riderKit: roundTrip.p99,
                                         floor: nil, unit: "ms"))
        } else {
            FileHandle.standardError.write(Data("rider-bench: no session bus, so no Secret Service rows (make bench provides one)\n".utf8))
        }
        return report
    }
}
