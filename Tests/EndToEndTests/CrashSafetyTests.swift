import Foundation
import RiderKit
import Testing
import TestSupport

/// `rider` killed with SIGKILL at varying moments of login, refresh and cache writes, as a
/// closed laptop lid or an OOM kill would. After every kill the session file still opens, the cache still opens, and the next
/// run either works or says plainly to log in again — it never reports a damaged vault or cache.
///
/// The one state a kill can leave that needs the user: killed after the server rotated the
/// refresh token but before the new one was saved. The stored refresh token is then spent; the
/// stored access token keeps working until it expires, and the next refresh ends the session
/// with "Your session has expired; sign in again. Run `rider login`." (exit 4). That state is made
/// deterministically by `rider CLI: keeping and losing the session › a refresh token already spent from another copy of the
/// vault is rejected: exit 4, session removed`.
@Suite("rider killed with SIGKILL mid-operation")
struct CrashSafetyTests {
    /// Few rounds: each is a `rider` process deriving a scrypt key, and `make test` runs this
    /// next to every other suite.
    static let rounds = 9

    /// The operations to interrupt, in turn: login, refresh, and a search that writes the cache.
    static let operations: [(arguments: [String], stdin: String?)] = [
        (["login", "--email", Demo.email, "--password-stdin"], Demo.password + "\n"),
        (["session", "refresh"], nil),
        (["users", "search", "a", "--limit", "100"], nil),
    ]

    @Test("SIGKILL at 9 moments of login, refresh and cache writes: the vault stays readable, the cache opens, the next run recovers")
    func killLoop() async throws {
        try await withSandboxedReferenceServer { _, sandbox in
            #expect(try await sandbox.loginAsDemo().status == 0)
            var killed = 0
            var relogins = 0
            for round in 0..<Self.rounds {
                let operation = Self.operations[round % Self.operations.count]
                // 0 to 2.4 s, spread: before the request, while it is in flight, while saving
                // (a debug `rider` needs 1–2 s here, most of it for the vault's scrypt).
                let delay = Duration.milliseconds((round * 283) % 2_400)
                if try await runAndKill(operation.arguments, stdin: operation.stdin, in: sandbox, after: delay) {
                    killed += 1
                }

                if let file = sandbox.sessionFile() {
                    let vault = EncryptedFileTokenVault(file: file, passphrase: .fixed(Sandbox.vaultPassphrase))
                    await #expect(throws: Never.self, "round \(round): the session file no longer opens") {
                        _ = try await vault.load()
                    }
                }
                let cache = try await sandbox.rider("cache", "stats", "--json")
                #expect(cache.status == 0, "round \(round): the cache does not open: \(cache)")

                let whoami = try await sandbox.rider("whoami", "--json")
                if whoami.status != 0 {
                    // Killed before the session was saved (or after the refresh token was spent).
                    #expect(whoami.stderr.contains("not_signed_in") || whoami.stderr.contains("session_expired"),
                            "round \(round): \(whoami)")
                    #expect(try await sandbox.loginAsDemo().status == 0, "round \(round): logging in again failed")
                    relogins += 1
                }
            }
            // Which rounds catch the process still running depends on the machine; the first (no delay) always does.
            #expect(killed > 0, "no round killed a running process")
            print("crash safety: \(killed) of \(Self.rounds) rider processes killed with SIGKILL, \(relogins) re-logins needed")
        }
    }

    /// Starts `rider arguments`, kills it with SIGKILL after `delay` if it is still running, and
    /// reports whether it was killed.
    private func runAndKill(_ arguments: [String], stdin: String?, in sandbox: Sandbox,
                            after delay: Duration) async throws -> Bool {
        let process = Process()
        process.executableURL = try RiderProcess.executable()
        process.arguments = arguments
        process.environment = sandbox.environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let input = UninheritedFiles.pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        if let stdin {
            try? input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8))
        }
        try? input.fileHandleForWriting.close()
        try await Task.sleep(for: delay)
        let wasRunning = process.isRunning
        if wasRunning { kill(process.processIdentifier, SIGKILL) }
        // Off the cooperative pool: the in-process reference server needs its threads.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread {
                process.waitUntilExit()
                continuation.resume()
            }.start()
        }
        return wasRunning && process.terminationReason == .uncaughtSignal
    }
}
