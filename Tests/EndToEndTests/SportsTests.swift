import Foundation
import RiderReferenceServer
import Testing

@Suite("rider CLI: sports")
struct SportsTests {
    @Test("list the catalogue, add a sport with a level, change it, see it in `mine`, remove it")
    func sportsRoundTrip() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            let catalogue = try await sandbox.rider("sports", "list")
            #expect(catalogue.status == 0, "the catalogue needs no login: \(catalogue)")
            #expect(catalogue.lines.contains { $0.hasPrefix("gravel") && $0.hasSuffix("Gravel") }, "\(catalogue)")
            // Kept for the day the server allows: the next run asks nobody.
            let requests = await server.store.stats().requests
            let again = try await sandbox.rider("sports", "list", "--json")
            #expect(again.status == 0, "\(again)")
            #expect(await server.store.stats().requests == requests, "the second listing came from sports.json")

            _ = try await sandbox.loginAsDemo()
            let add = try await sandbox.rider("sports", "add", "gravel", "--level", "beginner")
            #expect(add.status == 0, "\(add)")
            let change = try await sandbox.rider("sports", "add", "gravel", "--level", "expert", "--json")
            #expect(change.status == 0, "\(change)")
            let saved = try #require(try JSONSerialization.jsonObject(with: Data(change.stdout.utf8)) as? [String: String])
            #expect(saved == ["id": "gravel", "name": "Gravel", "level": "expert"])

            let mine = try await sandbox.rider("sports", "mine")
            #expect(mine.lines.count == 1 && mine.lines.first?.hasSuffix("expert") == true, "\(mine)")

            let remove = try await sandbox.rider("sports", "remove", "gravel")
            #expect(remove.status == 0, "\(remove)")
            let empty = try await sandbox.rider("sports", "mine", "--json")
            let body = try #require(try JSONSerialization.jsonObject(with: Data(empty.stdout.utf8)) as? [String: Any])
            #expect((body["sports"] as? [Any])?.isEmpty == true, "\(empty)")
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("an unknown sport exits 5, a malformed id or level exits 2, and signed out `mine` exits 4")
    func sportsErrors() async throws {
        try await withSandboxedReferenceServer { _, sandbox in
            let signedOut = try await sandbox.rider("sports", "mine")
            #expect(signedOut.status == 4, "\(signedOut)")

            _ = try await sandbox.loginAsDemo()
            let unknown = try await sandbox.rider("sports", "add", "curling", "--level", "expert")
            #expect(unknown.status == 5, "\(unknown)")
            #expect(unknown.errorLines.count == 1, "\(unknown)")
            let notMine = try await sandbox.rider("sports", "remove", "bmx", "--json")
            #expect(notMine.status == 5, "\(notMine)")
            let malformed = try await sandbox.rider("sports", "add", "../me", "--level", "expert")
            #expect(malformed.status == 2, "\(malformed)")
            let badLevel = try await sandbox.rider("sports", "add", "road", "--level", "legendary")
            #expect(badLevel.status == 2, "\(badLevel)")
        }
    }
}
