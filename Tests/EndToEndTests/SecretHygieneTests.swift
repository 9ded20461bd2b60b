import Foundation
import RiderReferenceServer
import Testing

@Suite("rider CLI: secrets stay secret")
struct SecretHygieneTests {
    @Test("no issued token nor the password appears in any output, even with --verbose and --json")
    func noSecretInAnyOutput() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            let login = try await sandbox.loginAsDemo("--verbose")
            #expect(login.status == 0, "\(login)")
            #expect(login.stderr.contains("POST"), "--verbose logs the request: \(login)")
            for arguments in [
                ["whoami", "--verbose"],
                ["session", "show", "--verbose", "--json"],
                ["session", "refresh", "--verbose", "--json"],
                ["profile", "show", "--verbose"],
                ["users", "search", "demo", "--verbose", "--json"],
            ] {
                let run = try await RiderProcess.run(arguments, environment: sandbox.environment, stdin: nil,
                                                     scratch: sandbox.root)
                await sandbox.transcript.record(run)
                #expect(run.status == 0, "\(run)")
            }
            await server.store.expireAccessTokens()
            let renewed = try await sandbox.rider("whoami", "--verbose", "--json")
            #expect(renewed.status == 0, "\(renewed)")

            // The session file is the one place tokens may be, and only its owner may read it.
            let file = try #require(sandbox.sessionFile())
            #expect(try permissions(of: file) == 0o600)
            #expect(try permissions(of: file.deletingLastPathComponent()) == 0o700)

            _ = try await sandbox.rider("logout", "--verbose")
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }
}
