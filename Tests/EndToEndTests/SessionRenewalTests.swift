import Foundation
import RiderReferenceServer
import Testing

@Suite("rider CLI: keeping and losing the session")
struct SessionRenewalTests {
    @Test("after the server expires every access token, the next command still works by refreshing once")
    func expiredAccessTokenIsRefreshed() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            _ = try await sandbox.loginAsDemo()
            await server.store.expireAccessTokens()

            let run = try await sandbox.rider("whoami", "--verbose")
            #expect(run.status == 0, "\(run)")
            #expect(run.stdout.contains(Demo.userID), "\(run)")
            #expect(await server.store.stats().refreshGrants == 1)
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("a refresh token already spent from another copy of the vault is rejected: exit 4, session removed")
    func reusedRefreshTokenEndsTheSession() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            _ = try await sandbox.loginAsDemo()
            let file = try #require(sandbox.sessionFile())
            let copy = try Data(contentsOf: file)

            let first = try await sandbox.rider("session", "refresh")
            #expect(first.status == 0, "\(first)")
            try sandbox.restoreSessionFile(copy, at: file)

            let second = try await sandbox.rider("session", "refresh")
            #expect(second.status == 4, "\(second)")
            #expect(second.errorLines.count == 1, "\(second)")
            #expect(second.stderr.contains("rider login"), "\(second)")
            let show = try await sandbox.rider("session", "show")
            #expect(show.status == 4, "the rejected session is gone: \(show)")
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("a session revoked by logout elsewhere cannot be used or refreshed: exit 4")
    func revokedSessionEndsTheSession() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            _ = try await sandbox.loginAsDemo()
            let file = try #require(sandbox.sessionFile())
            let copy = try Data(contentsOf: file)

            let logout = try await sandbox.rider("logout")
            #expect(logout.status == 0, "\(logout)")
            try sandbox.restoreSessionFile(copy, at: file)

            let run = try await sandbox.rider("whoami")
            #expect(run.status == 4, "\(run)")
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("logout with the server down still removes the local session, and says the server was not told")
    func logoutWhileOffline() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            _ = try await sandbox.loginAsDemo()
            await server.stop()

            let run = try await sandbox.rider("logout")
            #expect(run.status == 0, "\(run)")
            #expect(run.stdout.contains("the server could not be reached"), "\(run)")
            #expect(sandbox.sessionFile() == nil)
        }
    }
}
