import Foundation
import RiderReferenceServer
import Testing

@Suite("rider CLI: --record and --replay")
struct RecordReplayTests {
    /// The session after `login`, one process per command.
    static let commands: [[String]] = [["whoami"], ["users", "search", "jose", "--limit", "5"], ["profile", "show"]]

    @Test("a session recorded against the reference server replays with the server stopped: the same output, byte for byte")
    func recordThenReplay() async throws {
        let recording = FileManager.default.temporaryDirectory
            .appendingPathComponent("rider-recording-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: recording) }
        var server: URL?
        var recorded: [RiderRun] = []
        var secrets: [String] = []

        try await withSandboxedReferenceServer { running, sandbox in
            server = running.baseURL
            recorded.append(try await sandbox.rider(["--record", recording.path, "login", "--email", Demo.email,
                                                     "--password-stdin"], environment: [:], stdin: Demo.password + "\n"))
            for command in Self.commands {
                recorded.append(try await sandbox.rider(["--record", recording.path] + command, environment: [:]))
            }
            secrets = await running.store.issuedTokens() + [Demo.password]
            await expectNoSecretsLeaked(from: running, in: sandbox)
        }
        for run in recorded { #expect(run.status == 0 && run.stderr.isEmpty, "\(run)") }

        // The server is gone; a machine that never saw it replays the session from the folder alone,
        // with a password that was never the account's: the recording holds none to compare with.
        let sandbox = try Sandbox(server: server)
        defer { sandbox.remove() }
        var replayed = [try await sandbox.rider(["--replay", recording.path, "login", "--email", Demo.email,
                                                 "--password-stdin"], environment: [:], stdin: "not-the-password\n")]
        for command in Self.commands {
            replayed.append(try await sandbox.rider(["--replay", recording.path] + command, environment: [:]))
        }
        for (original, replay) in zip(recorded, replayed) {
            #expect(replay.status == 0 && replay.stderr.isEmpty, "\(replay)")
            #expect(replay.stdout == original.stdout, "\(replay)\n--- recorded:\n\(original.stdout)")
        }

        // The replay's placeholder session and someone else's users stayed beside the recording:
        // the person's own vault and cache were never touched.
        #expect(sandbox.sessionFile() == nil, "a replay wrote into the real vault")
        let cache = sandbox.root.appendingPathComponent("home/.cache")
        let cached = FileManager.default.enumerator(at: cache, includingPropertiesForKeys: nil)?
            .compactMap { ($0 as? URL)?.lastPathComponent }.filter { $0.hasSuffix(".sqlite") } ?? []
        #expect(cached.isEmpty, "a replay wrote into the real user cache: \(cached)")
        let state = (try? FileManager.default.contentsOfDirectory(atPath: recording.appendingPathComponent(".replay-state").path)) ?? []
        #expect(state.contains { $0.hasPrefix("session.") && $0.hasSuffix(".vault") }, "the replay's own vault: \(state)")

        // A request the session never made has no answer, and the error says which one.
        let unrecorded = try await sandbox.rider(["--replay", recording.path, "sports", "mine"], environment: [:])
        #expect(unrecorded.status == 10, "\(unrecorded)")
        #expect(unrecorded.stderr.hasPrefix("rider: error: The configuration is not usable: no recording for "
            + "GET /riders/me/sports in \(recording.path)"), "\(unrecorded)")

        // What was written holds no token the server issued nor the password, and only its owner may read it.
        let items = FileManager.default.enumerator(at: recording, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL } ?? []
        #expect(items.count > Self.commands.count + 1)
        for item in items {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: item.path, isDirectory: &isFolder)
            #expect(try permissions(of: item) == (isFolder.boolValue ? 0o700 : 0o600), "\(item.path)")
            guard !isFolder.boolValue else { continue }
            let bytes = try Data(contentsOf: item)
            let leaks = secrets.filter { bytes.firstRange(of: Data($0.utf8)) != nil }.count
            #expect(leaks == 0, "\(leaks) secrets in \(item.path)")
        }
        #expect(try permissions(of: recording) == 0o700)
    }

    @Test("--record and --replay together are a usage error")
    func recordAndReplayTogether() async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }

        let run = try await sandbox.rider("--record", "/tmp/a", "--replay", "/tmp/b", "whoami")

        #expect(run.status == 2, "\(run)")
        #expect(run.stderr.contains("--record and --replay cannot be used together"), "\(run)")
    }
}
