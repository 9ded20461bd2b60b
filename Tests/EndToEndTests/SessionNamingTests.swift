import Foundation
import RiderReferenceServer
import Testing
import TestSupport

/// What `rider` says a session is and where it lives, as a newcomer reads it (#35 items 3 and 5):
/// the server and the provider a sign-in used, and a session that renews itself shown as one.
@Suite("rider CLI: naming the server, the provider and the session's state")
struct SessionNamingTests {
    @Test("with an issuer set, login names the server the session is for and the provider it signed in at, even when they differ")
    func loginNamesServerAndIssuer() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            // The session is stored for --server, whatever answers there; the password went to the issuer.
            let elsewhere = "http://127.0.0.1:1"
            let login = try await sandbox.rider(["--server", elsewhere, "login", "--email", Demo.email, "--password-stdin"],
                                                environment: ["RIDER_ISSUER": server.baseURL.absoluteString],
                                                stdin: Demo.password + "\n")
            #expect(login.status == 0, "\(login)")
            let issuer = server.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            #expect(login.stdout.contains("on \(elsewhere) (signed in at \(issuer)"), "\(login)")

            let list = try await sandbox.rider(["session", "list"], environment: [:])
            #expect(list.stdout.contains(elsewhere), "the session is kept for the server named: \(list)")

            // Where the server is the issuer, the line names it once.
            let same = try await sandbox.loginAsDemo()
            #expect(same.status == 0 && same.stdout.contains("on \(issuer)") && !same.stdout.contains("signed in at"),
                    "\(same)")
        }
    }

    @Test("a session whose access token has expired but that renews itself is listed as renewing, not expired; session show names its account")
    func renewingSessionIsNotExpired() async throws {
        let configuration = ReferenceServerConfiguration(seedUsers: 3, accessTokenTTL: .seconds(1))
        try await withSandboxedReferenceServer(configuration) { _, sandbox in
            #expect(try await sandbox.loginAsDemo().status == 0)
            try await Task.sleep(for: .seconds(2))

            let list = try await sandbox.rider("session", "list")
            #expect(list.status == 0, "\(list)")
            // Titles as the users and config tables have them (#35 item 9).
            #expect(list.lines.first?.split(separator: " ") == ["SERVER", "ACCOUNT", "STATE", "EXPIRES", "REFRESHES", "VAULT"],
                    "\(list)")
            let row = try #require(list.lines.first { $0.contains(Demo.email) }, "\(list)")
            #expect(row.contains("renews on next use") && !row.contains("expired"), "\(row)")

            let show = try await sandbox.rider("session", "show")
            #expect(show.status == 0, "\(show)")
            #expect(show.lines.contains { $0.hasPrefix("account") && $0.contains(Demo.email) }, "\(show)")
            #expect(show.lines.contains { $0.hasPrefix("expires") && $0.contains("renewed on next use") }, "\(show)")
        }
    }
}
