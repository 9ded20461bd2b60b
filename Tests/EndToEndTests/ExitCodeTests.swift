import Foundation
import RiderReferenceServer
import Testing
import TestSupport

@Suite("rider CLI: exit codes and error messages")
struct ExitCodeTests {
    @Test("a wrong password exits 3 with one line on stderr and nothing on stdout")
    func wrongPassword() async throws {
        try await withSandboxedReferenceServer { _, sandbox in
            let run = try await sandbox.rider("login", "--email", Demo.email, "--password-stdin", stdin: "not-the-password\n")
            #expect(run.status == 3, "\(run)")
            #expect(run.errorLines == ["rider: error: The email or password is not correct."], "\(run)")
            #expect(run.stdout.isEmpty, "\(run)")
            #expect(!run.stderr.contains("not-the-password"))
        }
    }

    @Test("an unknown user id exits 5")
    func unknownUser() async throws {
        try await withSandboxedReferenceServer { _, sandbox in
            _ = try await sandbox.loginAsDemo()
            let run = try await sandbox.rider("users", "show", "u_999999")
            #expect(run.status == 5, "\(run)")
            #expect(run.errorLines.count == 1, "\(run)")
        }
    }

    @Test("a command that needs a session exits 4 when nobody is logged in")
    func notLoggedIn() async throws {
        try await withSandboxedReferenceServer { _, sandbox in
            let run = try await sandbox.rider("profile", "show")
            #expect(run.status == 4, "\(run)")
            #expect(run.stderr.contains("rider login"), "\(run)")
        }
    }

    @Test("a server that is down (nothing listening on the port) exits 7")
    func serverDown() async throws {
        let port = try LoopbackSocket.closedPort()
        let sandbox = try Sandbox(server: URL(string: "http://127.0.0.1:\(port)"))
        defer { sandbox.remove() }
        let run = try await sandbox.rider("login", "--email", Demo.email, "--password-stdin", stdin: Demo.password + "\n")
        #expect(run.status == 7, "\(run)")
        #expect(run.errorLines.count == 1, "\(run)")
    }

    @Test("no server configured exits 10 and says how to set one")
    func noServerConfigured() async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        let run = try await sandbox.rider("whoami")
        #expect(run.status == 10, "\(run)")
        #expect(run.errorLines.count == 1, "\(run)")
        #expect(run.stderr.contains("RIDER_BASE_URL"), "\(run)")
    }

    @Test("usage errors exit 2", arguments: [
        ["users", "search"],
        ["users", "search", "jose", "--limit", "0"],
        ["login", "--password", "hunter2"],
        ["profile", "update"],
        ["profile", "update", "--type", "pilot"],
        ["frobnicate"],
    ])
    func usageError(arguments: [String]) async throws {
        let sandbox = try Sandbox(server: URL(string: "http://127.0.0.1:9"))
        defer { sandbox.remove() }
        let run = try await RiderProcess.run(arguments, environment: sandbox.environment, stdin: nil,
                                             scratch: sandbox.root)
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr.hasPrefix("rider: error: "), "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
    }

    @Test("--help exits 0 on stdout, and login offers no option that takes a password")
    func passwordNeverInArgv() async throws {
        let sandbox = try Sandbox(server: nil)
        defer { sandbox.remove() }
        let help = try await sandbox.rider("login", "--help")
        #expect(help.status == 0, "\(help)")
        #expect(help.stderr.isEmpty, "\(help)")
        #expect(help.stdout.contains("--password-stdin"), "\(help)")
        let passwordOptions = help.stdout.components(separatedBy: "--password").dropFirst()
        #expect(passwordOptions.allSatisfy { $0.hasPrefix("-stdin") }, "only --password-stdin: \(help)")

        let root = try await sandbox.rider("--help")
        #expect(root.status == 0, "\(root)")
        #expect(root.stdout.contains("Exit codes"), "\(root)")
    }

    @Test("a malformed JSON answer from the token endpoint exits 8")
    func malformedServerJSON() async throws {
        let body = #"{"access_token": 12"#
        let server = try CannedHTTPServer(response: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
        defer { server.stop() }
        let sandbox = try Sandbox(server: URL(string: server.baseURL))
        defer { sandbox.remove() }
        let run = try await sandbox.rider("login", "--email", Demo.email, "--password-stdin", stdin: Demo.password + "\n")
        #expect(run.status == 8, "\(run)")
        #expect(run.errorLines.count == 1, "\(run)")
    }
}
