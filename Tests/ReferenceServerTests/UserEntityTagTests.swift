import Foundation
import RiderReferenceServer
import Testing

@Suite("GET /users/{id}: ETag and If-None-Match")
struct UserEntityTagTests {
    @Test("a user comes with a strong ETag and private, no-cache; the same tag in If-None-Match gets 304 without a body")
    func notModified() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 5, accessTokenTTL: .seconds(3600))) { server in
            let token = try await server.login().accessToken
            let first = try await server.get("/users/u_000003", token: token)
            #expect(first.status == 200)
            #expect(first.header("Cache-Control") == "private, no-cache")
            let tag = try #require(first.header("ETag"))
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""))

            for condition in [tag, "W/\(tag)", "\"other\", \(tag)", "*"] {
                let again = try await server.get("/users/u_000003", token: token, headers: ["If-None-Match": condition])
                #expect(again.status == 304, "\(condition)")
                #expect(again.body.isEmpty)
                #expect(again.header("ETag") == tag)
            }
        }
    }

    @Test("a stale tag, or one of another user, gets the full 200 answer")
    func modified() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 5, accessTokenTTL: .seconds(3600))) { server in
            let token = try await server.login().accessToken
            let other = try #require(try await server.get("/users/u_000002", token: token).header("ETag"))
            let response = try await server.get("/users/u_000003", token: token, headers: ["If-None-Match": other])
            #expect(response.status == 200)
            #expect(try response.decode(UserBody.self).id == "u_000003")
        }
    }

    @Test("a profile change changes the user's ETag, so a cached copy is revalidated as modified")
    func changesWithProfile() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let login = try await server.login()
            let me = try await server.get("/auth/me", token: login.accessToken).decode(UserBody.self)
            let before = try #require(try await server.get("/users/\(me.id)", token: login.accessToken).header("ETag"))

            let patch = try await server.patchRider(#"{"display_name":"Renamed Rider"}"#, token: login.accessToken)
            #expect(patch.status == 200)

            let after = try await server.get("/users/\(me.id)", token: login.accessToken, headers: ["If-None-Match": before])
            #expect(after.status == 200)
            #expect(after.header("ETag") != before)
            #expect(try after.decode(UserBody.self).displayName == "Renamed Rider")
        }
    }
}
