import Foundation
import RiderReferenceServer
import Testing

@Suite("GET and PUT /riders/me/preferences")
struct PreferencesTests {
    private func put(_ server: TestServer, _ json: String, token: String) async throws -> TestResponse {
        try await server.send("PUT", "/riders/me/preferences",
                              headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"],
                              body: Data(json.utf8))
    }

    @Test("defaults until saved; a PUT replaces the whole document, missing members taking defaults")
    func defaultsAndReplace() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let token = try await server.login().accessToken
            let defaults = try await server.get("/riders/me/preferences", token: token)
            #expect(defaults.status == 200)
            let body = try defaults.object()
            #expect(Set(body.keys) == ["notifications", "visibility", "units"])
            #expect(body["units"] as? String == "metric")

            let saved = try await put(server, #"{"units":"imperial","notifications":{"weekly_digest":true}}"#, token: token)
            #expect(saved.status == 200)
            let read = try await server.get("/riders/me/preferences", token: token).object()
            #expect(read["units"] as? String == "imperial")
            let notifications = try #require(read["notifications"] as? [String: Bool])
            #expect(notifications == ["ride_invitations": true, "messages": true, "newsletter": false, "weekly_digest": true])
        }
    }

    @Test("unknown members and wrong values are 422 naming each by its dotted path; nothing is stored")
    func validation() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let token = try await server.login().accessToken
            let bad = try await put(server,
                #"{"notifications":{"messages":"yes","sms":true},"visibility":{"profile":"aliens"},"theme":"dark"}"#,
                token: token)
            #expect(bad.status == 422)
            #expect(try bad.decode(ProblemBody.self).fields
                    == ["theme", "notifications.sms", "notifications.messages", "visibility.profile"])
            #expect(try await server.get("/riders/me/preferences", token: token).object()["units"] as? String == "metric")
        }
    }
}
