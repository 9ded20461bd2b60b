import Foundation
import RiderReferenceServer
import Testing

@Suite("rider CLI: a session that expired for good")
struct ReauthenticationTests {
    @Test("with no terminal to ask on, rider exits 4 with a one-line hint to log in, and asks nothing")
    func noTerminalExitsWithHint() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            #expect(try await sandbox.loginAsDemo().status == 0)
            // End the session on the server, as an administrator or a password change would.
            let direct = DirectAPI(baseURL: server.baseURL)
            for token in await server.store.issuedTokens() {
                let form = "token=" + (token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? token)
                _ = try await direct.send("POST", "/auth/revoke", contentType: "application/x-www-form-urlencoded",
                                          body: Data(form.utf8))
            }

            let run = try await sandbox.rider(["profile", "show"], environment: [:], stdin: "rider-demo\n")
            #expect(run.status == 4, "\(run)")
            #expect(run.errorLines.count == 1, "\(run)")
            #expect(run.stderr.contains("rider login"), "\(run)")
            #expect(run.stdout.isEmpty, "\(run)")
            #expect(try await sandbox.rider("whoami").status == 4, "the session is gone, not kept")
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("on a terminal, rider asks for the password (not echoed), signs in again and carries on with the command")
    func terminalAsksAndCarriesOn() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            #expect(try await sandbox.loginAsDemo().status == 0)
            #expect(try await sandbox.rider("whoami").status == 0, "so the cache knows the account's email")
            let direct = DirectAPI(baseURL: server.baseURL)
            for token in await server.store.issuedTokens() {
                let form = "token=" + (token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? token)
                _ = try await direct.send("POST", "/auth/revoke", contentType: "application/x-www-form-urlencoded",
                                          body: Data(form.utf8))
            }

            let terminal = try TerminalSession.start("'\(try RiderProcess.executable().path)' profile show",
                                                     environment: sandbox.environment)
            defer { terminal.stop() }
            try await terminal.waitFor("Password for \(Demo.email):")
            try terminal.type(Demo.password)
            let screen = try await terminal.waitFor("EXIT=")

            #expect(screen.contains("EXIT=0"), "\(screen)")
            #expect(screen.contains("Demo Rider"), "the profile is shown after signing in again:\n\(screen)")
            #expect(!screen.contains(Demo.password), "the password was echoed:\n\(screen)")
            #expect(try await sandbox.rider("whoami").status == 0, "the new session was stored")
        }
    }
}
