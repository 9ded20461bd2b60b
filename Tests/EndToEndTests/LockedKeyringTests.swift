import Foundation
import Testing

/// A keyring that is there but locked: libsecret would report "no such item" without an error,
/// so RiderKit must notice the lock and say so. Runs in a keyring session of its own, because
/// locking the shared one would disturb the other keyring tests.
@Suite("rider with a locked keyring",
       .enabled(if: ProcessInfo.processInfo.environment["RIDER_TEST_KEYRING"] == "1"
                    || ProcessInfo.processInfo.environment["CI"] == "true",
                "needs gnome-keyring and dbus: run through scripts/with-keyring.sh (make test does)"))
struct LockedKeyringTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `rider ARGUMENTS` in a fresh keyring session after locking its `login` collection.
    private func riderWithLockedKeyring(_ sandbox: Sandbox, _ arguments: [String],
                                        environment extra: [String: String] = [:]) async throws -> RiderRun {
        let rider = try RiderProcess.executable()
        let lock = "dbus-send --session --print-reply --dest=org.freedesktop.secrets /org/freedesktop/secrets "
            + "org.freedesktop.Secret.Service.Lock array:objpath:/org/freedesktop/secrets/collection/login >/dev/null"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["60", Self.repository.appendingPathComponent("scripts/with-keyring.sh").path,
                             "sh", "-c", "\(lock) && exec \"$0\" \"$@\"", rider.path] + arguments
        process.environment = sandbox.environment.merging(extra) { $1 }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let (out, err): (Data, Data) = await withCheckedContinuation { continuation in
            Thread {
                let out = output.fileHandleForReading.readDataToEndOfFile()
                let err = errors.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: (out, err))
            }.start()
        }
        let run = RiderRun(arguments: arguments, status: process.terminationStatus,
                           stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
        await sandbox.transcript.record(run)
        return run
    }

    @Test("automatic falls back to the encrypted file and says the keyring is locked")
    func automaticFallsBack() async throws {
        let sandbox = try Sandbox(server: URL(string: "http://127.0.0.1:9"))
        defer { sandbox.remove() }
        let run = try await riderWithLockedKeyring(sandbox, ["vault", "status"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("Vault:     encrypted-file"), "\(run)")
        #expect(run.stdout.contains("is locked"), "\(run)")
    }

    @Test("a forced secret-service vault is a storage error saying the keyring is locked, not 'not signed in'")
    func forcedKeyringFails() async throws {
        let sandbox = try Sandbox(server: URL(string: "http://127.0.0.1:9"))
        defer { sandbox.remove() }
        let run = try await riderWithLockedKeyring(sandbox, ["whoami"], environment: ["RIDER_VAULT": "secret-service"])
        #expect(run.status == 11, "\(run)")
        #expect(run.stderr.contains("is locked"), "\(run)")
    }
}
