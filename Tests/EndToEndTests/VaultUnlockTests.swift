import Foundation
import Testing

/// The encrypted file is unlocked once per login session, not once per process: the key derived
/// from the passphrase is kept in the kernel's user keyring, so later `rider` processes need no
/// passphrase until the timeout or `rider vault lock`; where keyctl is refused (a seccomp profile,
/// here `scripts/without-keyctl.py`), each process asks as before and `vault status` says why.
/// Serialized: `rider vault lock` forgets every kept key of the user, which these tests share.
@Suite("Encrypted file unlocked once per login session (kernel keyring)", .serialized)
struct VaultUnlockTests {
    /// The kernel keyring on, for ten minutes, as a person's default of 15 minutes would be. (A
    /// minute once ran out between the login and `vault status` under the whole suite on two cores;
    /// no test here is about the timeout's length.)
    static let kept = ["RIDER_VAULT_UNLOCK_TIMEOUT": "600"]
    /// No passphrase anywhere: only a kept key can open the file.
    static let noPassphrase = ["RIDER_VAULT_UNLOCK_TIMEOUT": "600", "RIDER_VAULT_PASSPHRASE": ""]

    static let withoutKeyctl = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/without-keyctl.py").path

    private func rider(_ sandbox: Sandbox, _ arguments: [String], _ extra: [String: String],
                       withoutKeyctl: Bool = false, stdin: String? = nil) async throws -> RiderRun {
        let run = try await RiderProcess.run(arguments, environment: sandbox.environment.merging(extra) { $1 },
                                             stdin: stdin, scratch: sandbox.root.appendingPathComponent("io"),
                                             through: withoutKeyctl ? [Self.withoutKeyctl] : [])
        await sandbox.transcript.record(run)
        return run
    }

    @Test("after one unlock, later processes read the session with no passphrase; vault lock forgets it at once")
    func unlockedOncePerLoginSession() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            let login = try await rider(sandbox, ["login", "--email", Demo.email, "--password-stdin"], Self.kept,
                                        stdin: Demo.password + "\n")
            #expect(login.status == 0, "\(login)")
            #expect(sandbox.sessionFile() != nil, "the session went to the encrypted file")

            for _ in 0..<2 {
                let whoami = try await rider(sandbox, ["whoami"], Self.noPassphrase)
                #expect(whoami.status == 0, "\(whoami)")
                #expect(whoami.stdout.contains(Demo.email), "\(whoami)")
            }
            let status = try await rider(sandbox, ["vault", "status"], Self.noPassphrase)
            #expect(status.stdout.contains("unlock    the encrypted file stays unlocked 10 min in the kernel keyring"),
                    "\(status)")
            #expect(status.stdout.contains("unlocked  yes"), "\(status)")

            let lock = try await rider(sandbox, ["vault", "lock"], Self.noPassphrase)
            #expect(lock.status == 0, "\(lock)")
            #expect(lock.stdout.contains("Forgot "), "\(lock)")
            let locked = try await rider(sandbox, ["whoami"], Self.noPassphrase)
            #expect(locked.status == 11, "\(locked)")
            #expect(locked.stderr.contains("RIDER_VAULT_PASSPHRASE"), "\(locked)")
            // The passphrase unlocks it again, for the processes after it too.
            #expect(try await rider(sandbox, ["whoami"], Self.kept).status == 0)
            #expect(try await rider(sandbox, ["whoami"], Self.noPassphrase).status == 0)
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("RIDER_VAULT_UNLOCK_TIMEOUT=0 keeps nothing: every process needs the passphrase")
    func zeroTimeoutKeepsNothing() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            #expect(try await sandbox.loginAsDemo().status == 0)
            let whoami = try await rider(sandbox, ["whoami"], ["RIDER_VAULT_PASSPHRASE": ""])
            #expect(whoami.status == 11, "\(whoami)")
            let status = try await rider(sandbox, ["vault", "status"], [:])
            #expect(status.stdout.contains("asks for its passphrase in each process (RIDER_VAULT_UNLOCK_TIMEOUT is 0)"),
                    "\(status)")
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("with keyctl refused, each process asks for the passphrase as before, and vault status says why")
    func fallbackWithoutKeyctl() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            let login = try await rider(sandbox, ["login", "--email", Demo.email, "--password-stdin"], Self.kept,
                                        withoutKeyctl: true, stdin: Demo.password + "\n")
            #expect(login.status == 0, "\(login)")
            let withPassphrase = try await rider(sandbox, ["whoami"], Self.kept, withoutKeyctl: true)
            #expect(withPassphrase.status == 0, "\(withPassphrase)")
            let without = try await rider(sandbox, ["whoami"], Self.noPassphrase, withoutKeyctl: true)
            #expect(without.status == 11, "\(without)")
            let status = try await rider(sandbox, ["vault", "status"], Self.kept, withoutKeyctl: true)
            #expect(status.status == 0, "\(status)")
            #expect(status.stdout.contains("asks for its passphrase in each process: the kernel refused keyctl "
                + "(Operation not permitted)"), "\(status)")
            let lock = try await rider(sandbox, ["vault", "lock"], Self.kept, withoutKeyctl: true)
            #expect(lock.status == 0 && lock.stdout.contains("Nothing was kept to forget"), "\(lock)")
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }
}
