import Foundation
import Testing

/// `rider doctor` against a real GNOME Keyring, unlocked and locked, each run in a keyring
/// session of its own (locking the shared one would disturb the other keyring tests).
@Suite("rider doctor with a keyring",
       .enabled(if: ProcessInfo.processInfo.environment["RIDER_TEST_KEYRING"] == "1"
                    || ProcessInfo.processInfo.environment["CI"] == "true",
                "needs gnome-keyring and dbus: run through scripts/with-keyring.sh (make test does)"))
struct DoctorKeyringTests {
    /// Runs `rider doctor --json` in a fresh keyring session, its `login` collection locked first
    /// when `locked`.
    private func doctor(_ sandbox: Sandbox, locked: Bool, environment extra: [String: String] = [:]) async throws -> RiderRun {
        try await sandbox.riderInKeyringSession(["doctor", "--json"], lockingCollection: locked, environment: extra)
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
