import Foundation
import RiderKit
import Testing
import TestSupport

/// Several processes on one encrypted vault file: killed writers and concurrent writers never
/// leave a partial or corrupt file behind.
@Suite("Encrypted vault file shared between processes")
struct VaultProcessTests {
    static let passphrase = "process test passphrase"

    /// A running `VaultWriter`; its standard error goes to a file so a failure can say why.
    private struct Writer {
        let process: Process
        let output: Pipe
        let errors: URL

        /// What the writer printed on standard error, for failure messages.
        var stderr: String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }

        /// Kills the writer if it still runs: a test that fails half-way must not leave a
        /// writer looping (one with COUNT 0 never stops on its own).
        func stop() {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
    }

    /// Starts `VaultWriter FILE TAG COUNT`; wait for it with ``waitUntilReady(_:)``.
    private func startWriter(file: URL, tag: String, count: Int) throws -> Writer {
        let process = Process()
        process.executableURL = try RiderProcess.executable(named: "VaultWriter")
        process.arguments = [file.path, tag, String(count)]
        process.environment = ["RIDER_VAULT_PASSPHRASE": Self.passphrase, "PATH": "/usr/bin:/bin"]
        let output = UninheritedFiles.pipe()
        process.standardOutput = output
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("rider-writer-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let errorHandle = try FileHandle(forWritingTo: errors)
        defer { try? errorHandle.close() }
        process.standardError = errorHandle
        try process.run()
        return Writer(process: process, output: output, errors: errors)
    }

    /// Waits (off the cooperative pool, which the in-process reference servers of other tests
    /// need) until the writer printed "ready" or ended.
    private func waitUntilReady(_ writer: Writer) async -> Bool {
        let handle = writer.output.fileHandleForReading
        return await offPool { String(decoding: handle.availableData, as: UTF8.self).hasPrefix("ready") }
    }

    private func waitUntilExit(_ writer: Writer) async {
        await offPool { writer.process.waitUntilExit() }
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
            let writer = try startWriter(file: file, tag: "w\(round)", count: 0)
            defer { writer.stop(); try? FileManager.default.removeItem(at: writer.errors) }
            #expect(await waitUntilReady(writer), "round \(round): the writer never became ready: \(writer.stderr)")
            // Let it get a varying way into later writes, then kill it without warning.
            try await Task.sleep(for: .milliseconds(5 + 17 * round))
            writer.stop()
            await waitUntilExit(writer)
            #expect(writer.process.terminationReason == .uncaughtSignal, "round \(round): \(writer.stderr)")

            let session = try #require(try await read(file), "round \(round)")
            #expect(session.userID.rawValue == "w\(round)", "round \(round)")
            #expect(session.accessToken.hasPrefix("w\(round)-") && session.accessToken.count > 512 * 1024)
        }
        // A later write clears the temporary files killed writers left behind.
        let last = try startWriter(file: file, tag: "final", count: 1)
        defer { last.stop(); try? FileManager.default.removeItem(at: last.errors) }
        _ = await waitUntilReady(last)
        await waitUntilExit(last)
        #expect(last.process.terminationStatus == 0, "\(last.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == [".session.vault.lock", "session.vault"])
    }

    @Test("two processes writing at once, with a third reading, never corrupt the file")
    func concurrentWriters() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rider-race-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("session.vault")
        // One write first, so both writers agree on the salt (a fresh file is created once).
        let first = try startWriter(file: file, tag: "seed", count: 1)
        defer { first.stop(); try? FileManager.default.removeItem(at: first.errors) }
        _ = await waitUntilReady(first)
        await waitUntilExit(first)

        let a = try startWriter(file: file, tag: "a", count: 25)
        let b = try startWriter(file: file, tag: "b", count: 25)
        defer {
            for writer in [a, b] { writer.stop(); try? FileManager.default.removeItem(at: writer.errors) }
        }
        var reads = 0
        while a.process.isRunning || b.process.isRunning {
            let session = try #require(try await read(file))
            #expect(["seed", "a", "b"].contains(session.userID.rawValue))
            reads += 1
        }
        await waitUntilExit(a)
        await waitUntilExit(b)
        #expect(a.process.terminationStatus == 0, "writer a: \(a.stderr)")
        #expect(b.process.terminationStatus == 0, "writer b: \(b.stderr)")
        let final = try #require(try await read(file))
        #expect(["a-25-", "b-25-"].contains { final.accessToken.hasPrefix($0) })
        #expect(reads > 0)
    }
}
