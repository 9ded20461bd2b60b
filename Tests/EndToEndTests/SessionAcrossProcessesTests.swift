import Foundation
import RiderReferenceServer
import Testing

/// The session engine's promises where a person meets them: separate `rider` processes sharing
/// one vault, and a server that speaks plain OAuth 2.0.
@Suite("rider CLI: sessions shared between processes and standard OAuth servers")
struct SessionAcrossProcessesTests {
    @Test("two rider processes that find the token expired at the same instant both succeed with one refresh")
    func twoProcessesOneRefresh() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            #expect(try await sandbox.loginAsDemo().status == 0)
            await server.store.expireAccessTokens()

            async let first = sandbox.rider("whoami")
            async let second = sandbox.rider("whoami")
            let runs = try await [first, second]

            for run in runs { #expect(run.status == 0, "\(run)") }
            // The second process waits on the refresh lock, then adopts the session the first stored
            // instead of spending the refresh token the first one already rotated.
            #expect(await server.store.stats().refreshGrants == 1)
            let after = try await sandbox.rider("whoami")
            #expect(after.status == 0, "\(after)")
            #expect(await server.store.stats().refreshGrants == 1)
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("login, whoami and refresh work against a standard OAuth 2.0 token endpoint with client authentication",
          arguments: ["basic", "body"])
    func standardOAuth(clientAuthentication: String) async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            let standard = ["RIDER_TOKEN_PATH": "/oauth2/token", "RIDER_CLIENT_ID": StandardOAuthClient.id,
                            "RIDER_CLIENT_SECRET": StandardOAuthClient.secret, "RIDER_CLIENT_AUTH": clientAuthentication]
            let login = try await sandbox.rider(["login", "--email", Demo.email, "--password-stdin"],
                                                environment: standard, stdin: Demo.password + "\n")
            #expect(login.status == 0, "\(login)")
            let whoami = try await sandbox.rider(["whoami"], environment: standard)
            #expect(whoami.status == 0 && whoami.stdout.contains(Demo.userID), "\(whoami)")
            let refresh = try await sandbox.rider(["session", "refresh"], environment: standard)
            #expect(refresh.status == 0, "\(refresh)")
            #expect(await server.store.stats().refreshGrants == 1)
            #expect(!(login.stdout + login.stderr).contains(StandardOAuthClient.secret))
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("a wrong client secret is reported as a configuration error (exit 10), not as a wrong password")
    func wrongClientSecret() async throws {
        try await withSandboxedReferenceServer { _, sandbox in
            let login = try await sandbox.rider(
                ["login", "--email", Demo.email, "--password-stdin"],
                environment: ["RIDER_TOKEN_PATH": "/oauth2/token", "RIDER_CLIENT_ID": StandardOAuthClient.id,
                              "RIDER_CLIENT_SECRET": "not-the-secret"],
                stdin: Demo.password + "\n")
            #expect(login.status == 10, "\(login)")
            #expect(login.stderr.contains("client id or secret"), "\(login)")
        }
    }
}
