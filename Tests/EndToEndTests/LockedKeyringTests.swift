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
    /// Runs `rider ARGUMENTS` in a fresh keyring session after locking its `login` collection.
    private func riderWithLockedKeyring(_ sandbox: Sandbox, _ arguments: [String],
                                        environment extra: [String: String] = [:]) async throws -> RiderRun {
        try await sandbox.riderInKeyringSession(arguments, lockingCollection: true, environment: extra)
    }

    @Test("automatic falls back to the encrypted file and says the keyring is locked")
    func automaticFallsBack() async throws {
        let sandbox = try Sandbox(server: URL(string: "http://127.0.0.1:9"))
        defer { sandbox.remove() }
        let run = try await riderWithLockedKeyring(sandbox, ["vault", "status"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("vault     encrypted-file"), "\(run)")
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

    @Test("a session stored in a collection that is then locked: the same 'is locked' storage error, never unlocked, no secret shown")
    func storedSessionInLockedCollection() async throws {
        let sandbox = try Sandbox(server: URL(string: "http://127.0.0.1:9"))
        defer { sandbox.remove() }
        // The session's item is there; only the lock stands between rider and it. The read goes
        // over the bus in a plain session since #34, and must still stop at the probe's lock.
        let store = "printf %s 'riderkit:v2:e30' | secret-tool store --label=locked-test xdg:schema org.riderkit.Session "
            + "service http://127.0.0.1:9 server http://127.0.0.1:9 account u_1"
        let run = try await sandbox.riderInKeyringSession(["session", "token"], lockingCollection: true, setUp: store,
                                                          environment: ["RIDER_VAULT": "secret-service"])
        #expect(run.status == 11, "\(run)")
        #expect(run.stderr.contains("is locked"), "\(run)")
        #expect(!run.stdout.contains("e30") && !run.stderr.contains("e30"), "\(run)")
    }
}
