import Foundation
import RiderReferenceServer
import Testing

/// What a person sees while rider waits on a server (issue 35, item 7): the timeout bounds the
/// wait (one attempt, no silent multiple of it), an upload whose bytes are all out says it waits
/// for the server, and Ctrl-C during a write says whether the change may have been made.
@Suite("rider CLI: waiting on a server that does not answer")
struct WaitingTests {
    /// A sandbox pointed at `server` with a given token (no sign-in needed, so the one request the
    /// command makes is the one waited on), the user cache in memory and a 2 s timeout.
    private func sandbox(for server: SilentHTTPServer) throws -> (Sandbox, [String: String]) {
        let sandbox = try Sandbox(server: URL(string: server.baseURL), requestTimeout: 2)
        return (sandbox, ["RIDER_TOKEN": "given-access-token-for-waiting", "RIDER_CACHE": "memory"])
    }

    @Test("a server that never answers: one request, ended by the 2 s timeout, not three attempts")
    func timeoutIsTheWholeWait() async throws {
        let server = try SilentHTTPServer()
        defer { server.stop() }
        let (sandbox, environment) = try sandbox(for: server)
        defer { sandbox.remove() }

        let started = ContinuousClock.now
        let run = try await sandbox.rider(["users", "show", "u_000001"], environment: environment)
        let elapsed = ContinuousClock.now - started

        #expect(run.status != 0, "\(run)")
        #expect(run.stderr.contains("2 s") || run.stderr.lowercased().contains("time"), "says it timed out: \(run)")
        #expect(server.requests.count == 1, "one attempt, never sent again after the timeout: \(server.requests)")
        // Three attempts would take 6 s at least; one takes 2 s and the process's start.
        #expect(elapsed < .seconds(5), "took \(elapsed): \(run)")
    }

    @Test("an upload whose bytes are all sent says it waits for the server; Ctrl-C then says it may have changed")
    func uploadWaitsThenCtrlC() async throws {
        let server = try SilentHTTPServer()
        defer { server.stop() }
        let (sandbox, environment) = try sandbox(for: server)
        defer { sandbox.remove() }
        let picture = sandbox.root.appendingPathComponent("portrait.png")
        try AvatarTests.png(bytes: 600 * 1024).write(to: picture)

        // A timeout long enough for a person to press Ctrl-C while the bar waits.
        let terminal = try TerminalSession.start(
            "'\(try RiderProcess.executable().path)' profile avatar '\(picture.path)'",
            environment: sandbox.environment.merging(environment) { $1 }.merging(["RIDER_TIMEOUT": "60"]) { $1 })
        defer { terminal.stop() }
        let waiting = try await terminal.waitFor("waiting for the server")
        #expect(waiting.contains("100%"), "\(waiting)")
        try terminal.press("C-c")
        // Lines longer than the terminal wrap: read the screen as one line.
        let screen = try await terminal.waitFor("EXIT=").replacingOccurrences(of: "\n", with: "")
        #expect(screen.contains("EXIT=130"), "ended by SIGINT, as the shell expects: \(screen)")
        #expect(screen.contains("cancelled after the whole picture was sent") && screen.contains("may have changed"),
                "\(screen)")
        #expect(screen.contains("rider profile show"), "names how to find out: \(screen)")
    }

    @Test("Ctrl-C during profile update: before its change is sent, unchanged; after, it may have been made")
    func profileUpdateCtrlC() async throws {
        let server = try SilentHTTPServer()
        defer { server.stop() }
        let (sandbox, environment) = try sandbox(for: server)
        defer { sandbox.remove() }

        // Still reading the profile's current tag: nothing was sent that changes anything.
        let reading = try TerminalSession.start(
            "'\(try RiderProcess.executable().path)' profile update --display-name 'New Name'",
            environment: sandbox.environment.merging(environment) { $1 }.merging(["RIDER_TIMEOUT": "60"]) { $1 })
        defer { reading.stop() }
        let readDeadline = ContinuousClock.now + .seconds(30)
        while !server.requests.contains(where: { $0.hasPrefix("GET /riders/me ") }), ContinuousClock.now < readDeadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        try reading.press("C-c")
        let unchanged = try await reading.waitFor("EXIT=").replacingOccurrences(of: "\n", with: "")
        #expect(unchanged.contains("EXIT=130") && unchanged.contains("your profile is unchanged"), "\(unchanged)")
        #expect(!server.requests.contains { $0.hasPrefix("PATCH ") }, "\(server.requests)")

        // With the tag given, the PATCH is the first request: once the server has read it, the
        // change may have been made whatever happens next.
        let terminal = try TerminalSession.start(
            "'\(try RiderProcess.executable().path)' profile update --display-name 'New Name' --if-match '\"v1\"'",
            environment: sandbox.environment.merging(environment) { $1 }.merging(["RIDER_TIMEOUT": "60"]) { $1 })
        defer { terminal.stop() }
        let deadline = ContinuousClock.now + .seconds(30)
        while !server.requests.contains(where: { $0.hasPrefix("PATCH ") }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(server.requests.contains { $0.hasPrefix("PATCH ") }, "\(server.requests)")
        try terminal.press("C-c")
        let screen = try await terminal.waitFor("EXIT=").replacingOccurrences(of: "\n", with: "")
        #expect(screen.contains("EXIT=130"), "\(screen)")
        #expect(screen.contains("it may have been made") && screen.contains("rider profile show"), "\(screen)")
    }
}
