import Foundation
import Testing

/// `rider-server --exit-with-parent` (#19 item 7): a server started by a test or a benchmark that
/// crashes does not outlive it.
@Suite("rider-server: --exit-with-parent")
struct ServerLifetimeTests {
    @Test("a server whose parent exits stops on its own, within a couple of seconds")
    func stopsWithItsParent() async throws {
        let server = try RiderProcess.executable(named: "rider-server")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rider-parent-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pidFile = folder.appendingPathComponent("server.pid")
        // The parent: a shell that starts the server in the background and exits once it listens,
        // as a crashed benchmark would, without stopping it.
        let parent = Process()
        parent.executableURL = URL(fileURLWithPath: "/bin/sh")
        parent.arguments = ["-c", """
            "$0" --port 0 --seed-users 1 --exit-with-parent >"$1.out" 2>/dev/null &
            echo $! >"$1"
            for _ in $(seq 1 100); do [ -s "$1.out" ] && exit 0; sleep 0.1; done
            exit 1
            """, server.path, pidFile.path]
        try parent.run()
        parent.waitUntilExit()
        #expect(parent.terminationStatus == 0, "the server started and printed its address")
        let text = try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let pid = try #require(Int32(text))
        // A hang detector, not a speed limit: it checks twice a second.
        var alive = true
        for _ in 0..<100 where alive {
            try await Task.sleep(for: .milliseconds(100))
            alive = kill(pid, 0) == 0
        }
        if alive { kill(pid, SIGKILL) }
        #expect(!alive, "rider-server \(pid) outlived its parent")
    }
}
