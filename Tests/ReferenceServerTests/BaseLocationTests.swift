import Foundation
import RiderReferenceServer
import Testing

@Suite("GET and PUT /riders/me/base-location")
struct BaseLocationTests {
    private func put(_ server: TestServer, _ json: String, token: String) async throws -> TestResponse {
        try await server.send("PUT", "/riders/me/base-location",
                              headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"],
                              body: Data(json.utf8))
    }

    @Test("404 until set; a PUT stores it with a trimmed name, and a PUT without a name clears it")
    func setAndRead() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let token = try await server.login().accessToken
            #expect(try await server.get("/riders/me/base-location", token: token).status == 404)

            let saved = try await put(server, #"{"latitude":-33.9249,"longitude":18.4241,"place_name":" Cape Town "}"#, token: token)
            #expect(saved.status == 200)
            let body = try saved.object()
            #expect(Set(body.keys) == ["latitude", "longitude", "place_name", "updated_at"])
            #expect(body["place_name"] as? String == "Cape Town")
            #expect(body["latitude"] as? Double == -33.9249)

            _ = try await put(server, #"{"latitude":0,"longitude":0}"#, token: token)
            let read = try await server.get("/riders/me/base-location", token: token)
            #expect(read.header("Cache-Control") == "no-store")
            #expect(try read.object()["place_name"] is NSNull)
        }
    }

    @Test("out-of-range, missing, wrongly typed and unknown members are 422 naming each")
    func validation() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let token = try await server.login().accessToken
            let bad = try await put(server, #"{"latitude":91,"longitude":"east","place_name":7,"altitude":3}"#, token: token)
            #expect(bad.status == 422)
            #expect(try bad.decode(ProblemBody.self).fields == ["altitude", "latitude", "longitude", "place_name"])
            let missing = try await put(server, #"{"place_name":"Nowhere"}"#, token: token)
            #expect(try missing.decode(ProblemBody.self).fields == ["latitude", "longitude"])
            #expect(try await put(server, "[1,2]", token: token).status == 400)
            #expect(try await server.get("/riders/me/base-location", token: token).status == 404, "nothing was stored")
        }
    }
}
