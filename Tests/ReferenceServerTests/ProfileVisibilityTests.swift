import Foundation
import RiderReferenceServer
import Testing

@Suite("The profile_visibility preference is enforced")
struct ProfileVisibilityTests {
    static let configuration = ReferenceServerConfiguration(seedUsers: 10, accessTokenTTL: .seconds(3600))

    private func setVisibility(_ server: TestServer, _ value: String, token: String) async throws {
        let response = try await server.send("PUT", "/riders/me/preferences",
                                             headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"],
                                             body: Data(#"{"visibility":{"profile":"\#(value)"}}"#.utf8))
        #expect(response.status == 200)
    }

    /// Logs in as seeded user `u_000003`, looked up through the demo account.
    private func loginAsRider(_ server: TestServer, demo: String) async throws -> (user: UserBody, token: String) {
        let user = try await server.get("/users/u_000003", token: demo).decode(UserBody.self)
        return (user, try await server.login(user.email, "password-u_000003").accessToken)
    }

    @Test("a rider whose visibility is nobody is left out of others' listings and searches and is 404 to them")
    func nobodyIsHidden() async throws {
        try await TestServer.with(Self.configuration) { server in
            let demo = try await server.login().accessToken
            let (rider, token) = try await loginAsRider(server, demo: demo)
            let before = try await server.get("/users?limit=100", token: demo).decode(UserPageBody.self)

            try await setVisibility(server, "nobody", token: token)

            let user = try await server.get("/users/\(rider.id)", token: demo)
            #expect(user.status == 404)
            #expect(try user.decode(ProblemBody.self).type == "https://riderkit.invalid/problems/not-found",
                    "the same answer as an id nobody has")
            let list = try await server.get("/users?limit=100", token: demo).decode(UserPageBody.self)
            #expect(!list.users.map(\.id).contains(rider.id))
            #expect(list.total == before.total - 1)
            let search = try await server.get("/users/search?q=\(FormBody.escape(rider.displayName))", token: demo)
                .decode(UserPageBody.self)
            #expect(!search.users.map(\.id).contains(rider.id))
            #expect(try await server.get("/riders/\(rider.id)/avatar", token: demo).status == 404)
        }
    }

    @Test("a hidden rider still sees themself in GET /users/{id}, listings and searches")
    func hiddenRiderSeesThemself() async throws {
        try await TestServer.with(Self.configuration) { server in
            let demo = try await server.login().accessToken
            let (rider, token) = try await loginAsRider(server, demo: demo)
            try await setVisibility(server, "nobody", token: token)

            #expect(try await server.get("/users/\(rider.id)", token: token).decode(UserBody.self) == rider)
            let list = try await server.get("/users?limit=100", token: token).decode(UserPageBody.self)
            #expect(list.users.map(\.id).contains(rider.id))
            let search = try await server.get("/users/search?q=\(FormBody.escape(rider.displayName))", token: token)
                .decode(UserPageBody.self)
            #expect(search.users.map(\.id).contains(rider.id))
        }
    }

    @Test("members and everyone are visible to every signed-in rider, and switching back from nobody shows the rider again")
    func membersAndEveryoneVisible() async throws {
        try await TestServer.with(Self.configuration) { server in
            let demo = try await server.login().accessToken
            let (rider, token) = try await loginAsRider(server, demo: demo)
            for value in ["members", "everyone", "nobody", "members"] {
                try await setVisibility(server, value, token: token)
                let status = try await server.get("/users/\(rider.id)", token: demo).status
                #expect(status == (value == "nobody" ? 404 : 200), "\(value)")
            }
            #expect(try await server.get("/users/\(rider.id)").status == 401, "a signed-out caller sees no one, whatever the setting")
        }
    }
}
