import Foundation
import RiderReferenceServer
import Testing

@Suite("rider CLI: the whole flow against the reference server")
struct FullFlowTests {
    @Test("login → whoami → profile update → users search → session refresh → logout, each step reporting success")
    func fullFlow() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            // Given a fresh machine, when the demo rider logs in with the password on stdin
            let login = try await sandbox.loginAsDemo()
            #expect(login.status == 0, "\(login)")
            let origin = server.baseURL.absoluteString.hasSuffix("/")
                ? String(server.baseURL.absoluteString.dropLast()) : server.baseURL.absoluteString
            #expect(login.stdout.hasPrefix("Logged in as demo@example.com (u_000000) on \(origin), session valid until "),
                    "\(login)")
            #expect(login.stderr.isEmpty, "\(login)")

            let whoami = try await sandbox.rider("whoami")
            #expect(whoami.status == 0, "\(whoami)")
            #expect(whoami.lines.contains { $0.hasPrefix("id") && $0.hasSuffix(Demo.userID) }, "\(whoami)")
            #expect(whoami.lines.contains { $0.hasPrefix("email") && $0.hasSuffix(Demo.email) }, "\(whoami)")

            let session = try await sandbox.rider("session", "show")
            #expect(session.status == 0, "\(session)")
            #expect(session.lines.contains { $0.hasPrefix("user id") && $0.hasSuffix(Demo.userID) }, "\(session)")
            #expect(session.lines.contains { $0.hasPrefix("vault") }, "\(session)")
            #expect(session.lines.contains { $0.hasPrefix("expires") && $0.contains("(in ") }, "\(session)")

            let update = try await sandbox.rider(
                "profile", "update", "--display-name", "Ana Demo", "--type", "mentor",
                "--description", "Gravel on weekends", "--sport", "gravel", "--sport", "road")
            #expect(update.status == 0, "\(update)")
            #expect(update.lines.first == "Profile updated.", "\(update)")
            #expect(update.lines.contains { $0.hasPrefix("display name") && $0.hasSuffix("Ana Demo") }, "\(update)")
            #expect(update.lines.contains { $0.hasPrefix("sports") && $0.hasSuffix("gravel, road") }, "\(update)")

            let search = try await sandbox.rider("users", "search", "jose", "--limit", "5")
            #expect(search.status == 0, "\(search)")
            #expect(search.lines.first?.hasPrefix("total ") == true, "\(search)")
            #expect(search.lines.first?.contains("page 1 of") == true, "\(search)")
            #expect(search.lines.count == 6, "a header and five riders: \(search)")
            #expect(search.lines.dropFirst().allSatisfy { $0.hasPrefix("u_") }, "\(search)")

            let refresh = try await sandbox.rider("session", "refresh")
            #expect(refresh.status == 0, "\(refresh)")
            #expect(refresh.stdout.hasPrefix("Session refreshed for u_000000"), "\(refresh)")
            #expect(await server.store.stats().refreshGrants == 1)

            // The session file is private to its owner before it goes away.
            let file = try #require(sandbox.sessionFile())
            #expect(try permissions(of: file) == 0o600)
            #expect(try permissions(of: file.deletingLastPathComponent()) == 0o700)

            let logout = try await sandbox.rider("logout")
            #expect(logout.status == 0, "\(logout)")
            #expect(logout.stdout.hasPrefix("Logged out of demo@example.com; the session was revoked on the server"), "\(logout)")
            #expect(sandbox.sessionFile() == nil)

            // Then commands that need a session say so with exit code 4.
            let after = try await sandbox.rider("whoami")
            #expect(after.status == 4, "\(after)")
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }
}

/// The permission bits of `url` (e.g. `0o600`).
func permissions(of url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}
