import Foundation
import RiderKit
import Testing

/// Several processes on one encrypted vault file: killed writers and concurrent writers never
/// leave a partial or corrupt file behind.
@Suite("Encrypted vault file shared between processes")
struct VaultProcessTests {
    static let passphrase = "process test passphrase"

    /// Starts `VaultWriter FILE TAG COUNT` and waits until its first save is done.
    private func startWriter(file: URL, tag: String, count: Int) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = try RiderProcess.executable(named: "VaultWriter")
        process.arguments = [file.path, tag, String(count)]
        process.environment = ["RIDER_VAULT_PASSPHRASE": Self.passphrase, "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        return (process, output)
    }

    /// Waits (off the cooperative pool, which the in-process reference servers of other tests
    /// need) until the writer printed "ready" or ended.
    private func waitUntilReady(_ output: Pipe) async -> Bool {
        let handle = output.fileHandleForReading
        return await offPool { String(decoding: handle.availableData, as: UTF8.self).hasPrefix("ready") }
    }

    private func waitUntilExit(_ process: Process) async {
        await offPool { process.waitUntilExit() }
    }

    /// Runs blocking `body` on a thread of its own.
    private func offPool<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    /// The session in `file`, which must open.
    private func read(_ file: URL) async throws -> Session? {
        try await EncryptedFileTokenVault(file: file, passphrase: .fixed(Self.passphrase)).load()
    }

    @Test("a writer killed at any moment leaves the old or the new session, never a partial file")
    func killedWriter() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rider-kill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("session.vault")

        for round in 0..<8 {
            let (writer, output) = try startWriter(file: file, tag: "w\(round)", count: 0)
            #expect(await waitUntilReady(output), "round \(round): the writer never became ready")
            // Let it get a varying way into later writes, then kill it without warning.
            try await Task.sleep(for: .milliseconds(5 + 17 * round))
            kill(writer.processIdentifier, SIGKILL)
            await waitUntilExit(writer)
            #expect(writer.terminationReason == .uncaughtSignal, "round \(round)")

            let session = try #require(try await read(file), "round \(round)")
            #expect(session.userID.rawValue == "w\(round)", "round \(round)")
            #expect(session.accessToken.hasPrefix("w\(round)-") && session.accessToken.count > 512 * 1024)
        }
        // A later write clears the temporary files killed writers left behind.
        let (last, output) = try startWriter(file: file, tag: "final", count: 1)
        _ = await waitUntilReady(output)
        await waitUntilExit(last)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == [".session.vault.lock", "session.vault"])
    }

    @Test("two processes writing at once, with a third reading, never corrupt the file")
    func concurrentWriters() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rider-race-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("session.vault")
        // One write first, so both writers agree on the salt (a fresh file is created once).
        let (first, firstOutput) = try startWriter(file: file, tag: "seed", count: 1)
        _ = await waitUntilReady(firstOutput)
        await waitUntilExit(first)

        let (a, _) = try startWriter(file: file, tag: "a", count: 25)
        let (b, _) = try startWriter(file: file, tag: "b", count: 25)
        var reads = 0
        while a.isRunning || b.isRunning {
            let session = try #require(try await read(file))
            #expect(["seed", "a", "b"].contains(session.userID.rawValue))
            reads += 1
        }
        await waitUntilExit(a)
        await waitUntilExit(b)
        #expect(a.terminationStatus == 0 && b.terminationStatus == 0)
        let final = try #require(try await read(file))
        #expect(["a-25-", "b-25-"].contains { final.accessToken.hasPrefix($0) })
        #expect(reads > 0)
    }
}
