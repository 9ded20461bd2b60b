import Foundation
import RiderReferenceServer
import Testing

@Suite("GET and PATCH /riders/me")
struct RiderProfileTests {
    @Test("the profile comes with a strong quoted ETag and explicit nulls")
    func getProfile() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let token = try await server.login()
            let response = try await server.get("/riders/me", token: token.accessToken)
            #expect(response.status == 200)
            let etag = try #require(response.header("ETag"))
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && !etag.hasPrefix("W/"))
            let object = try response.object()
            #expect(Set(object.keys) == ["user_id", "display_name", "rider_type", "description", "avatar_url", "sports", "updated_at"])
            #expect(object["avatar_url"] is NSNull)
            let rider = try response.decode(RiderBody.self)
            #expect(rider.userID == "u_000000")
            #expect(rider.displayName == "Demo Rider")
            #expect(rider.updatedAt == "2024-01-01T00:00:00Z")
        }
    }

    @Test("a PATCH with the current ETag applies and returns a new ETag")
    func patchWithMatchingETag() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let token = try await server.login()
            let etag = try #require(try await server.get("/riders/me", token: token.accessToken).header("ETag"))
            let response = try await server.patchRider(
                #"{"display_name":"Renée Núñez","sports":["gravel","BMX"],"avatar_url":"https://example.com/a.png"}"#,
                token: token.accessToken,
                ifMatch: etag
            )
            #expect(response.status == 200)
            let newETag = try #require(response.header("ETag"))
            #expect(newETag != etag)
            let rider = try response.decode(RiderBody.self)
            #expect(rider.displayName == "Renée Núñez")
            #expect(rider.sports == ["gravel", "BMX"])
            #expect(rider.avatarURL == "https://example.com/a.png")
            #expect(try await server.get("/riders/me", token: token.accessToken).header("ETag") == newETag)
        }
    }

    @Test("a PATCH with a stale ETag answers 412 with the current ETag and changes nothing")
    func patchWithStaleETag() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let token = try await server.login()
            let stale = try #require(try await server.get("/riders/me", token: token.accessToken).header("ETag"))
            let current = try #require(
                try await server.patchRider(#"{"description":"first"}"#, token: token.accessToken, ifMatch: stale).header("ETag")
            )
            let response = try await server.patchRider(#"{"description":"second"}"#, token: token.accessToken, ifMatch: stale)
            #expect(response.status == 412)
            #expect(response.header("ETag") == current)
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(try await server.get("/riders/me", token: token.accessToken).decode(RiderBody.self).description == "first")
        }
    }

    @Test("If-Match: * and a list containing the current tag both match")
    func ifMatchWildcardAndList() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let token = try await server.login()
            #expect(try await server.patchRider(#"{"rider_type":"mentor"}"#, token: token.accessToken, ifMatch: "*").status == 200)
            let etag = try #require(try await server.get("/riders/me", token: token.accessToken).header("ETag"))
            let list = #""nope-1", W/\#(etag), \#(etag)"#
            #expect(try await server.patchRider("{}", token: token.accessToken, ifMatch: list).status == 200)
            #expect(try await server.patchRider("{}", token: token.accessToken, ifMatch: "W/\(etag)").status == 412)
            #expect(try await server.patchRider("{}", token: token.accessToken, ifMatch: "unquoted").status == 400)
        }
    }

    @Test("null removes the description and avatar and empties sports; absent members stay")
    func mergePatchNull() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let token = try await server.login()
            _ = try await server.patchRider(#"{"avatar_url":"http://example.com/x.png"}"#, token: token.accessToken)
            let response = try await server.patchRider(
                #"{"description":null,"avatar_url":null,"sports":null}"#,
                token: token.accessToken,
                contentType: "application/json"
            )
            #expect(response.status == 200)
            let rider = try response.decode(RiderBody.self)
            #expect(rider.description == nil)
            #expect(rider.avatarURL == nil)
            #expect(rider.sports.isEmpty)
            #expect(rider.displayName == "Demo Rider")
            #expect(try response.object()["description"] is NSNull)
        }
    }

    @Test("display_name and rider_type changes show in the user view")
    func userViewFollows() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let token = try await server.login()
            _ = try await server.patchRider(#"{"display_name":"Łukasz Weiß","rider_type":"mentor"}"#, token: token.accessToken)
            let me = try await server.get("/auth/me", token: token.accessToken).decode(UserBody.self)
            #expect(me.displayName == "Łukasz Weiß")
            #expect(me.riderType == "mentor")
            let found = try await server.get("/users/search?q=lukasz%20weiss", token: token.accessToken).decode(UserPageBody.self)
            #expect(found.users.map(\.id) == ["u_000000"])
        }
    }

    @Test("invalid members answer 422 naming every field, and change nothing")
    func patchValidation() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let token = try await server.login()
            let before = try await server.get("/riders/me", token: token.accessToken)
            let tooLong = String(repeating: "x", count: 501)
            let response = try await server.patchRider(
                #"{"display_name":null,"rider_type":"pro","description":"\#(tooLong)","avatar_url":"ftp://example.com/a","sports":["", 3],"nickname":"x","user_id":"u_1"}"#,
                token: token.accessToken
            )
            #expect(response.status == 422)
            let fields = Set(try response.decode(ProblemBody.self).fields)
            #expect(fields == ["display_name", "rider_type", "description", "avatar_url", "sports[0]", "sports[1]", "nickname", "user_id"])
            let after = try await server.get("/riders/me", token: token.accessToken)
            #expect(after.header("ETag") == before.header("ETag"))
        }
    }

    @Test("more than 20 sports are refused")
    func tooManySports() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let token = try await server.login()
            let sports = (0..<21).map { "\"s\($0)\"" }.joined(separator: ",")
            let response = try await server.patchRider(#"{"sports":[\#(sports)]}"#, token: token.accessToken)
            #expect(response.status == 422)
            #expect(try response.decode(ProblemBody.self).fields == ["sports"])
        }
    }

    @Test("malformed JSON answers 400, a wrong media type 415")
    func patchMalformed() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let token = try await server.login()
            #expect(try await server.patchRider("{nope", token: token.accessToken).status == 400)
            #expect(try await server.patchRider("", token: token.accessToken).status == 400)
            #expect(try await server.patchRider("null", token: token.accessToken).status == 400)
            let wrongType = try await server.patchRider("{}", token: token.accessToken, contentType: "text/plain")
            #expect(wrongType.status == 415)
            #expect(wrongType.header("Accept-Patch")?.contains("application/merge-patch+json") == true)
        }
    }
}
