import Foundation
import RiderReferenceServer
import Testing

/// A rotated refresh token is never lost to a keyring that fails a save. `rider` runs
/// against a stub Secret Service (scripts/with-stub-keyring.sh) that is told, between commands,
/// to accept, refuse or stall writes, while the reference server rotates the refresh token on
/// every refresh and ends the whole sign-in when a retired one comes back (reuse detection, RFC
/// 9700 §4.14.2). So every refresh after a failed save succeeding is the proof that the token
/// the server issued last was kept somewhere.
@Suite("rider when the keyring refuses or stalls a save",
       .enabled(if: ProcessInfo.processInfo.environment["RIDER_TEST_KEYRING"] == "1"
                    || ProcessInfo.processInfo.environment["CI"] == "true",
                "needs dbus and python3-gi: run through scripts/with-keyring.sh (make test does)"))
struct KeyringSaveFailureTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The commands, in one stub session (its items live in memory), each step's exit status,
    /// output, errors and the stub's write count written to `io/steps/<step>.*`.
    static let script = #"""
        set -u
        out="$1"; rider="$2"; mode="$RIDER_STUB_KEYRING_MODE_FILE"
        step() {
          name=$1; shift
          "$rider" "$@" >"$out/$name.out" 2>"$out/$name.err" </dev/null
          echo $? >"$out/$name.status"
          cp "$mode.writes" "$out/$name.writes"
        }
        lookup() { secret-tool lookup xdg:schema org.riderkit.Session service "$ORIGIN" >"$out/$1.secret" 2>/dev/null; }
        echo accept >"$mode"
        printf '%s\n' "$DEMO_PASSWORD" | "$rider" login --email "$DEMO_EMAIL" --password-stdin >"$out/login.out" 2>"$out/login.err"
        echo $? >"$out/login.status"
        cp "$mode.writes" "$out/login.writes"
        echo refuse >"$mode"; step refused session refresh
        step status vault status --json
        step whoami whoami
        echo accept >"$mode"; step back session refresh; lookup back
        echo stall >"$mode"; RIDER_KEYRING_TIMEOUT=0.5 step stalled session refresh
        echo accept >"$mode"; step backAgain session refresh; lookup backAgain
        echo refuse >"$mode"; RIDER_VAULT=secret-service step forced session refresh
        started=$(date +%s%N)
        echo stall-reads >"$mode"; RIDER_KEYRING_TIMEOUT=0.5 RIDER_VAULT=secret-service step stalledRead whoami --policy cache-first
        echo $(( ($(date +%s%N) - started) / 1000000 )) >"$out/stalledRead.ms"
        echo refuse-plain-first >"$mode"; RIDER_VAULT=secret-service step plainRefused whoami --policy cache-first
        echo accept >"$mode"
        """#

    @Test("refused and stalled saves go to the encrypted file with a warning and come back; a forced keyring says the session is lost")
    func neverLosesTheRotatedToken() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            let steps = sandbox.root.appendingPathComponent("io/steps")
            try FileManager.default.createDirectory(at: steps, withIntermediateDirectories: true)
            let script = sandbox.root.appendingPathComponent("io/save-failures.sh")
            try Self.script.write(to: script, atomically: true, encoding: .utf8)
            let origin = "http://127.0.0.1:\(server.baseURL.port ?? 0)"
            let status = try await Self.runInStubKeyring(
                ["bash", script.path, steps.path, try RiderProcess.executable().path],
                environment: sandbox.environment.merging([
                    "ORIGIN": origin, "DEMO_EMAIL": Demo.email, "DEMO_PASSWORD": Demo.password,
                    // A hang detector, not a speed limit: the test is about where the session lands.
                    "RIDER_TIMEOUT": "60",
                    "RIDER_STUB_KEYRING_MODE_FILE": sandbox.root.appendingPathComponent("io/stub-mode").path,
                ]) { $1 })
            #expect(status == 0, "the stub keyring session ran")
            let step = { (name: String) in Step(folder: steps, name: name) }

            #expect(step("login").status == 0, "\(step("login"))")

            // Refused: retried (three attempts), then the file, with a warning; the file is read first.
            let refused = step("refused")
            #expect(refused.status == 0, "\(refused)")
            #expect(refused.writes - step("login").writes == 3, "\(refused)")
            #expect(refused.stderr.contains("rider: warning: the keyring did not take the session"), "\(refused)")
            #expect(step("status").stdout.contains(#""backend":"encrypted-file""#)
                    || step("status").stdout.contains(#""backend" : "encrypted-file""#), "\(step("status"))")
            #expect(step("status").stdout.contains("did not take the last save"), "\(step("status"))")
            #expect(step("whoami").status == 0, "\(step("whoami"))")

            // Accepted again: the session moves back, and the rotated token is the one in the keyring.
            let back = step("back")
            #expect(back.status == 0 && !back.stderr.contains("warning"), "\(back)")
            #expect(await server.store.issuedTokens().contains(try back.storedRefreshToken()), "\(back)")

            // Stalled: two attempts of 0.5 s, then the file; accepted again: back in the keyring.
            let stalled = step("stalled")
            #expect(stalled.status == 0, "\(stalled)")
            #expect(stalled.stderr.contains("did not answer within"), "\(stalled)")
            let backAgain = step("backAgain")
            #expect(backAgain.status == 0 && !backAgain.stderr.contains("warning"), "\(backAgain)")
            #expect(sandbox.sessionFile() == nil, "back in the keyring, the file is gone")
            #expect(await server.store.issuedTokens().contains(try backAgain.storedRefreshToken()), "\(backAgain)")

            // Forced keyring: nothing to fall back to, so it says what happened and what to do.
            let forced = step("forced")
            #expect(forced.status == 11, "\(forced)")
            #expect(forced.stderr.contains("the server renewed the session, but it could not be saved"), "\(forced)")
            #expect(forced.writes - backAgain.writes == 3, "\(forced)")

            // A provider that never answers the secret's read (the plain-session read's
            // GetSecrets): the keyring timeout ends it, not GLib's 25 s.
            let stalledRead = step("stalledRead")
            #expect(stalledRead.status == 11, "\(stalledRead)")
            #expect(stalledRead.stderr.contains("did not answer within"), "\(stalledRead)")
            #expect(stalledRead.milliseconds < 10_000, "\(stalledRead)")
            // A provider that refuses the plain session the read opens with: the read goes to
            // libsecret's lookup (DH first, which this stub refuses, then plain) and finds the session.
            let plainRefused = step("plainRefused")
            #expect(plainRefused.status == 0, "\(plainRefused)")
            #expect(plainRefused.stdout.contains(Demo.email), "\(plainRefused)")
            for name in ["login", "refused", "status", "whoami", "back", "stalled", "backAgain", "forced", "stalledRead",
                         "plainRefused"] {
                let done = step(name)
                await sandbox.transcript.record(RiderRun(arguments: [name], status: done.status,
                                                         stdout: done.stdout, stderr: done.stderr))
            }
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    /// Runs `command` under scripts/with-stub-keyring.sh and returns its exit status.
    private static func runInStubKeyring(_ command: [String], environment: [String: String]) async throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["180", repository.appendingPathComponent("scripts/with-stub-keyring.sh").path] + command
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return await withCheckedContinuation { continuation in
            Thread {
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }.start()
        }
    }
}

/// What one step of the script left behind.
private struct Step: CustomStringConvertible {
    let folder: URL
    let name: String

    private func text(_ suffix: String) -> String {
        (try? String(contentsOf: folder.appendingPathComponent("\(name).\(suffix)"), encoding: .utf8)) ?? ""
    }

    var status: Int32 { Int32(text("status").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1 }
    /// How long the step took, for the steps the script times (else `Int.max`).
    var milliseconds: Int { Int(text("ms").trimmingCharacters(in: .whitespacesAndNewlines)) ?? .max }
    var stdout: String { text("out") }
    var stderr: String { text("err") }
    var writes: Int { Int(text("writes").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1 }

    /// The refresh token in the keyring item the step looked up.
    func storedRefreshToken() throws -> String {
        try KeyringSecret.refreshToken(in: text("secret"))
    }

    var description: String {
        "\(name) → exit \(status), \(writes) keyring writes\n--- stdout\n\(stdout)--- stderr\n\(stderr)"
    }
}
