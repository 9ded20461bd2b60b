import Foundation
import RiderReferenceServer
import Testing

@Suite("GET /sports and /riders/me/sports")
struct SportsTests {
    private func setSport(_ server: TestServer, _ id: String, _ json: String, token: String) async throws -> TestResponse {
        try await server.send("POST", "/riders/me/sports/\(id)",
                              headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"],
                              body: Data(json.utf8))
    }

    @Test("the catalogue is public and may be reused for a day")
    func catalogue() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let response = try await server.get("/sports")
            #expect(response.status == 200)
            #expect(response.header("Cache-Control") == "public, max-age=86400")
            let sports = try #require(try response.object()["sports"] as? [[String: Any]])
            #expect(sports.contains { $0["id"] as? String == "gravel" && $0["name"] as? String == "Gravel" })
            #expect(sports.allSatisfy { Set($0.keys) == ["id", "name"] })
        }
    }

    @Test("adding answers 201, changing the level 200, and the list keeps the order of adding")
    func addChangeList() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let token = try await server.login().accessToken
            let added = try await setSport(server, "mtb", #"{"level":"beginner"}"#, token: token)
            #expect(added.status == 201)
            #expect(try added.object() as? [String: String] == ["id": "mtb", "name": "Mountain bike", "level": "beginner"])
            #expect(try await setSport(server, "gravel", #"{"level":"expert"}"#, token: token).status == 201)
            let changed = try await setSport(server, "mtb", #"{"level":"intermediate"}"#, token: token)
            #expect(changed.status == 200)

            let list = try await server.get("/riders/me/sports", token: token)
            #expect(list.status == 200)
            #expect(list.header("Cache-Control") == "no-store")
            let sports = try #require(try list.object()["sports"] as? [[String: String]])
            #expect(sports == [["id": "mtb", "name": "Mountain bike", "level": "intermediate"],
                               ["id": "gravel", "name": "Gravel", "level": "expert"]])
        }
    }

    @Test("removing answers 204 and the sport is gone; removing it again answers 404")
    func remove() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let token = try await server.login().accessToken
            _ = try await setSport(server, "road", #"{"level":"expert"}"#, token: token)
            let headers = ["Authorization": "Bearer \(token)"]
            #expect(try await server.send("DELETE", "/riders/me/sports/road", headers: headers).status == 204)
            #expect((try await server.get("/riders/me/sports", token: token).object()["sports"] as? [Any])?.isEmpty == true)
            let again = try await server.send("DELETE", "/riders/me/sports/road", headers: headers)
            #expect(again.status == 404)
            #expect(again.header("Content-Type") == "application/problem+json")
        }
    }

    @Test("an unknown sport is 404; a bad or missing level and unknown members are 422 naming each field")
    func errors() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let token = try await server.login().accessToken
            #expect(try await setSport(server, "curling", #"{"level":"expert"}"#, token: token).status == 404)

            let bad = try await setSport(server, "road", #"{"level":"pro","colour":"red"}"#, token: token)
            #expect(bad.status == 422)
            let fields = try bad.decode(ProblemBody.self).errors?.map(\.field)
            #expect(fields == ["colour", "level"])
            let missing = try await setSport(server, "road", "{}", token: token)
            #expect(try missing.decode(ProblemBody.self).errors?.map(\.field) == ["level"])
            #expect(try await setSport(server, "road", "not json", token: token).status == 400)
        }
    }

    @Test("the rider's sports need a token; the catalogue does not")
    func authentication() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let list = try await server.get("/riders/me/sports")
            #expect(list.status == 401)
            #expect(try await server.send("DELETE", "/riders/me/sports/road").status == 401)
            #expect(try await server.get("/sports").status == 200)
            #expect(try await server.send("PUT", "/riders/me/sports/road").status == 405)
        }
    }
}
