import Foundation
import RiderReferenceServer
import Testing

@Suite("rider CLI: users list")
struct UserListingTests {
    @Test("--all streams every rider once, in id order, and caches them; one page shows a header")
    func listAll() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            #expect(try await sandbox.loginAsDemo().status == 0)
            let page = try await sandbox.rider("users", "list", "--limit", "5")
            #expect(page.status == 0, "\(page)")
            let header = try #require(page.lines.first)
            #expect(header.hasPrefix("total 301 users · page 1 of 61"), "\(page)")
            #expect(page.lines.count == 6)

            let all = try await sandbox.rider("users", "list", "--all", "--limit", "40")
            #expect(all.status == 0, "\(all)")
            let ids = all.lines.map { String($0.prefix(8)) }
            #expect(ids.count == 301)
            #expect(ids == ids.sorted() && Set(ids).count == 301)
            #expect(ids.first == Demo.userID)

            let json = try await sandbox.rider("users", "list", "--all", "--json")
            let objects = try json.lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            #expect(objects.count == 301 && objects.allSatisfy { $0["id"] is String }, "JSON Lines")

            let stats = try await sandbox.rider("cache", "stats", "--json")
            let statistics = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
            #expect(statistics["entries"] as? Int == 301, "\(stats)")
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("signed out exits 4; --page with --all and a bad limit exit 2")
    func errors() async throws {
        try await withSandboxedReferenceServer { _, sandbox in
            let signedOut = try await sandbox.rider("users", "list", "--all")
            #expect(signedOut.status == 4, "\(signedOut)")
            #expect(try await sandbox.rider("users", "list", "--all", "--page", "2").status == 2)
            #expect(try await sandbox.rider("users", "list", "--limit", "0").status == 2)
        }
    }
}
