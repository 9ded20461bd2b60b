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
