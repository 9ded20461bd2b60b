import Foundation
import RiderReferenceServer
import Testing

/// A stored session only ever goes to the server it came from, and no secret follows a redirect:
/// each scenario puts a second listener on loopback and checks that it receives nothing.
@Suite("rider CLI: a session goes only to its own server")
struct SessionBindingTests {
    static let unauthorized = "HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer\r\nContent-Length: 0\r\n"
        + "Connection: close\r\n\r\n"

    @Test("a session kept in a file: path is never another server's, which receives nothing; it still works at home")
    func fileVaultIsBoundToItsServer() async throws {
        let stranger = try CannedHTTPServer(response: Self.unauthorized)
        defer { stranger.stop() }
        try await withSandboxedReferenceServer { server, sandbox in
            let file = sandbox.root.appendingPathComponent("vaults/session.vault")
            let vault = ["RIDER_VAULT": "file:\(file.path)"]
            let login = try await sandbox.rider(["login", "--email", Demo.email, "--password-stdin"],
                                                environment: vault, stdin: Demo.password + "\n")
            #expect(login.status == 0, "\(login)")

            // Accounts are listed per server: on the other one nobody is signed in, whichever
            // account is named. (The file's own binding, should it be reached, is tested with the vault.)
            for command in [["whoami"], ["session", "refresh"], ["users", "search", "jose"],
                            ["--account", Demo.email, "whoami"], ["--account", Demo.userID, "session", "token"]] {
                let elsewhere = try await sandbox.rider(["--server", stranger.baseURL] + command, environment: vault)
                #expect(elsewhere.status == 4, "\(elsewhere)")
                #expect(elsewhere.stdout.isEmpty, "\(elsewhere)")
            }
            #expect(stranger.requests.isEmpty, "\(stranger.requests.count) requests reached the other server")

            let home = try await sandbox.rider(["whoami"], environment: vault)
            #expect(home.status == 0, "\(home)")
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("a token endpoint's 307 to another listener hands it nothing: no password, no client secret")
    func tokenRequestsNeverFollowRedirects() async throws {
        let thief = try CannedHTTPServer(response: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        defer { thief.stop() }
        let redirector = try CannedHTTPServer(response: "HTTP/1.1 307 Temporary Redirect\r\nLocation: \(thief.baseURL)/steal\r\n"
            + "Content-Length: 0\r\nConnection: close\r\n\r\n")
        defer { redirector.stop() }
        let sandbox = try Sandbox(server: URL(string: redirector.baseURL))
        defer { sandbox.remove() }

        let login = try await sandbox.rider(["login", "--email", Demo.email, "--password-stdin"],
                                            environment: ["RIDER_CLIENT_ID": "rider-cli",
                                                          "RIDER_CLIENT_SECRET": "client-secret-never-sent-on"],
                                            stdin: Demo.password + "\n")

        #expect(login.status != 0, "\(login)")
        #expect(login.stderr.contains("redirect"), "\(login)")
        #expect(redirector.requests.count == 1)
        #expect(thief.requests.isEmpty, "the redirect target received \(thief.requests.count) requests")
        #expect(!login.stdout.contains(Demo.password) && !login.stderr.contains(Demo.password))
    }

    @Test("a revocation endpoint configured after sign-in on another origin gets nothing: logout refuses, keeps the session")
    func revocationGoesOnlyWhereTheSessionWasIssued() async throws {
        let stranger = try CannedHTTPServer(response: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        defer { stranger.stop() }
        try await withSandboxedReferenceServer { server, sandbox in
            let login = try await sandbox.loginAsDemo()
            #expect(login.status == 0, "\(login)")

            let moved = ["RIDER_REVOKE_PATH": "\(stranger.baseURL)/revoke"]
            let logout = try await sandbox.rider(["logout"], environment: moved)
            #expect(logout.status == 11, "the storage/binding refusal, as for the token endpoint: \(logout)")
            #expect(logout.stderr.contains(stranger.baseURL), "\(logout)")
            #expect(!logout.stdout.contains("revoked") && !logout.stderr.contains("was revoked"), "\(logout)")
            #expect(stranger.requests.isEmpty, "\(stranger.requests.count) requests reached the other server")

            let still = try await sandbox.rider("whoami")
            #expect(still.status == 0, "the session is kept: \(still)")
            let home = try await sandbox.rider("logout")
            #expect(home.status == 0, "\(home)")
            #expect(home.stdout.contains("revoked on the server"), "\(home)")
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }
}
