import Foundation
import RiderReferenceServer
import Testing

@Suite("rider CLI: base location")
struct BaseLocationTests {
    @Test("no location at first; --set with a negative latitude and a name saves it; show reads it back")
    func baseLocation() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            _ = try await sandbox.loginAsDemo()
            let none = try await sandbox.rider("profile", "location")
            #expect(none.status == 0, "\(none)")
            #expect(none.stdout.contains("No base location is set"), "\(none)")

            let set = try await sandbox.rider("profile", "location", "--set", "-33.9249,18.4241", "--name", "Cape Town")
            #expect(set.status == 0, "\(set)")
            let show = try await sandbox.rider("profile", "location", "--json")
            let body = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
            #expect(body["latitude"] as? Double == -33.9249)
            #expect(body["longitude"] as? Double == 18.4241)
            #expect(body["place_name"] as? String == "Cape Town")
            await expectNoSecretsLeaked(from: server, in: sandbox)
        }
    }

    @Test("a latitude out of range exits 9 naming the field and sends nothing; a malformed pair exits 2")
    func baseLocationErrors() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            _ = try await sandbox.loginAsDemo()
            let requestsBefore = await server.store.stats().requests
            let out = try await sandbox.rider("profile", "location", "--set", "91,0", "--json")
            #expect(out.status == 9, "\(out)")
            let body = try #require(try JSONSerialization.jsonObject(with: Data(out.stderr.utf8)) as? [String: Any])
            let fields = ((body["error"] as? [String: Any])?["fields"] as? [[String: Any]])?.compactMap { $0["field"] as? String }
            #expect(fields == ["latitude"], "\(out)")
            #expect(await server.store.stats().requests == requestsBefore, "rejected before any request")

            let malformed = try await sandbox.rider("profile", "location", "--set", "north,east")
            #expect(malformed.status == 2, "\(malformed)")
            let nameAlone = try await sandbox.rider("profile", "location", "--name", "Home")
            #expect(nameAlone.status == 2, "\(nameAlone)")
        }
    }
}
