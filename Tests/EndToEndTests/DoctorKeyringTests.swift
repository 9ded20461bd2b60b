import Foundation
import Testing

/// `rider doctor` against a real GNOME Keyring, unlocked and locked, each run in a keyring
/// session of its own (locking the shared one would disturb the other keyring tests).
@Suite("rider doctor with a keyring",
       .enabled(if: ProcessInfo.processInfo.environment["RIDER_TEST_KEYRING"] == "1"
                    || ProcessInfo.processInfo.environment["CI"] == "true",
                "needs gnome-keyring and dbus: run through scripts/with-keyring.sh (make test does)"))
struct DoctorKeyringTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `rider doctor --json` in a fresh keyring session, its `login` collection locked first
    /// when `locked`.
    private func doctor(_ sandbox: Sandbox, locked: Bool, environment extra: [String: String] = [:]) async throws -> RiderRun {
        let rider = try RiderProcess.executable()
        let lock = "dbus-send --session --print-reply --dest=org.freedesktop.secrets /org/freedesktop/secrets "
            + "org.freedesktop.Secret.Service.Lock array:objpath:/org/freedesktop/secrets/collection/login >/dev/null"
        let arguments = ["doctor", "--json"]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["60", Self.repository.appendingPathComponent("scripts/with-keyring.sh").path,
                             "sh", "-c", (locked ? "\(lock) && " : "") + "exec \"$0\" \"$@\"", rider.path] + arguments
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

    @Test("an unlocked keyring: the bus, the Secret Service and the default collection are ok")
    func unlocked() async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        let run = try await doctor(sandbox, locked: false)
        #expect(run.status == 0, "\(run)")
        let (checks, _) = try DoctorTests.checks(run)
        #expect(checks["dbus"]?.status == "ok", "\(run)")
        #expect(checks["secret-service"]?.status == "ok", "\(run)")
        #expect(checks["keyring-collection"]?.status == "ok", "\(run)")
        #expect(checks["keyring-collection"]?.detail.contains("is unlocked") == true, "\(run)")
    }

    @Test("a locked collection: a note with the unlock fix while the encrypted file serves (exit 0), a failure when the keyring is required (exit 1)")
    func locked() async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        let run = try await doctor(sandbox, locked: true)
        #expect(run.status == 0, "\(run)")
        let (checks, healthy) = try DoctorTests.checks(run)
        #expect(healthy)
        #expect(checks["dbus"]?.status == "ok", "\(run)")
        #expect(checks["keyring-collection"]?.status == "note", "\(run)")
        #expect(checks["keyring-collection"]?.detail.contains("is locked") == true, "\(run)")
        #expect(checks["keyring-collection"]?.fix?.hasPrefix("unlock it") == true, "\(run)")

        let required = try await doctor(sandbox, locked: true, environment: ["RIDER_VAULT": "secret-service"])
        #expect(required.status == 1, "\(required)")
        #expect(try DoctorTests.checks(required).checks["keyring-collection"]?.status == "fail", "\(required)")
    }
}
