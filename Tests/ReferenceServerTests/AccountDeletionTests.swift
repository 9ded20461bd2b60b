import Foundation
import RiderReferenceServer
import Testing

@Suite("DELETE /riders/me")
struct AccountDeletionTests {
    @Test("the account's tokens stop working, it cannot log in, its id is gone and its email may register again")
    func deletion() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 5, accessTokenTTL: .seconds(3600))) { server in
            let token = try await server.login()
            let other = try await server.login()
            let before = try await server.get("/users?limit=100", token: other.accessToken).decode(UserPageBody.self)

            let deleted = try await server.send("DELETE", "/riders/me", headers: ["Authorization": "Bearer \(token.accessToken)"])
            #expect(deleted.status == 204)

            #expect(try await server.get("/riders/me", token: token.accessToken).status == 401)
            #expect(try await server.get("/riders/me", token: other.accessToken).status == 401, "every session ends")
            #expect(try await server.refresh(token.refreshToken).status == 400)
            let login = try await server.postForm("/auth/token", [("grant_type", "password"), ("username", "demo@example.com"),
                                                                  ("password", "rider-demo")])
            #expect(login.status == 400)

            let registered = try await server.postJSON("/auth/register",
                #"{"email":"demo@example.com","password":"a new password","display_name":"Demo Again","rider_type":"learner"}"#)
            #expect(registered.status == 201)
            let newcomer = try await server.login("demo@example.com", "a new password")
            #expect(newcomer.userID != token.userID)
            #expect(try await server.get("/users/\(token.userID)", token: newcomer.accessToken).status == 404)
            let after = try await server.get("/users?limit=100", token: newcomer.accessToken).decode(UserPageBody.self)
            #expect(after.total == before.total, "one account left, one joined")
            #expect(!after.users.contains { $0.id == token.userID })
        }
    }

    @Test("without a token it is 401 and nothing is deleted")
    func needsToken() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let response = try await server.send("DELETE", "/riders/me")
            #expect(response.status == 401)
            #expect(try await server.login().userID == "u_000000")
        }
    }
}
