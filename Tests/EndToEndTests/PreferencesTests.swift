import Foundation
import RiderReferenceServer
import Testing

@Suite("rider CLI: preferences")
struct PreferencesTests {
    @Test("changing a preference keeps the settings a newer client saved that rider does not know")
    func preferencesRoundTrip() async throws {
        try await withSandboxedReferenceServer { server, sandbox in
            // A newer client sets what this version of rider has never heard of.
            let direct = DirectAPI(baseURL: server.baseURL)
            let token = try await direct.accessToken()
            let newer = #"{"units":"imperial","notifications":{"weekly_digest":true,"newsletter":false}}"#
            let (_, status) = try await direct.send("PUT", "/riders/me/preferences", token: token,
                                                    contentType: "application/json", body: Data(newer.utf8))
            #expect(status == 200)

            _ = try await sandbox.loginAsDemo()
            let change = try await sandbox.rider("profile", "preferences", "--newsletter", "on", "--profile-visibility", "nobody")
            #expect(change.status == 0, "\(change)")
            #expect(change.lines.contains { $0.hasPrefix("newsletter") && $0.hasSuffix("on") }, "\(change)")

            let stored = try await direct.object("/riders/me/preferences", token: token)
            #expect(stored["units"] as? String == "imperial", "an older client must not erase newer settings")
            let notifications = try #require(stored["notifications"] as? [String: Bool])
            #expect(notifications["weekly_digest"] == true)
            #expect(notifications["newsletter"] == true)
            #expect((stored["visibility"] as? [String: Any])?["profile"] as? String == "nobody")

            let show = try await sandbox.rider("profile", "preferences", "--json")
            let shown = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
            #expect((shown["visibility"] as? [String: Any])?["profile"] as? String == "nobody", "\(show)")
            let bad = try await sandbox.rider("profile", "preferences", "--newsletter", "maybe")
            #expect(bad.status == 2, "\(bad)")
        }
    }
}
