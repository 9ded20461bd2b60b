import Foundation
import RiderReferenceServer
import Testing

@Suite("POST /riders/me/avatar and GET /riders/{id}/avatar")
struct AvatarTests {
    static let configuration = ReferenceServerConfiguration(seedUsers: 2, accessTokenTTL: .seconds(3600),
                                                            maximumAvatarSize: 4096)

    private func upload(_ server: TestServer, _ body: MultipartBody, token: String) async throws -> TestResponse {
        try await server.send("POST", "/riders/me/avatar",
                              headers: ["Authorization": "Bearer \(token)", "Content-Type": body.contentType],
                              body: body.data)
    }

    @Test("an upload is stored: the profile answers with avatar_url and a new ETag, and the picture comes back byte for byte with its type and ETag")
    func uploadAndFetch() async throws {
        try await TestServer.with(Self.configuration) { server in
            let token = try await server.login().accessToken
            let before = try await server.get("/riders/me", token: token)
            let picture = Pictures.png + Data((0..<2000).map { UInt8($0 % 251) })

            let uploaded = try await upload(server, .avatar(picture), token: token)

            #expect(uploaded.status == 200, "\(uploaded.text)")
            #expect(uploaded.header("Content-Type") == "application/json")
            #expect(uploaded.header("Cache-Control") == "no-store")
            let tag = try #require(uploaded.header("ETag"))
            #expect(tag != before.header("ETag"), "the profile has a new version")
            let avatarURL = try #require(try uploaded.object()["avatar_url"] as? String)
            #expect(avatarURL == server.baseURL.absoluteString + "/riders/u_000000/avatar")
            #expect(try await server.get("/riders/me", token: token).header("ETag") == tag)

            let fetched = try await server.get("/riders/u_000000/avatar", token: token)
            #expect(fetched.status == 200)
            #expect(fetched.body == picture)
            #expect(fetched.header("Content-Type") == "image/png")
            #expect(fetched.header("Cache-Control") == "private, no-cache")
            let avatarTag = try #require(fetched.header("ETag"))
            let revalidated = try await server.get("/riders/u_000000/avatar", token: token,
                                                   headers: ["If-None-Match": "W/\(avatarTag)"])
            #expect(revalidated.status == 304)
            #expect(revalidated.body.isEmpty)

            _ = try await upload(server, .avatar(Pictures.jpeg, contentType: "image/jpeg"), token: token)
            let replaced = try await server.get("/riders/u_000000/avatar", token: token)
            #expect(replaced.body == Pictures.jpeg)
            #expect(replaced.header("Content-Type") == "image/jpeg")
            #expect(replaced.header("ETag") != avatarTag, "a new picture, a new tag")
        }
    }

    @Test("both routes want a bearer token; GET /riders/me/avatar is 405 allowing POST")
    func authentication() async throws {
        try await TestServer.with(Self.configuration) { server in
            let body = MultipartBody.avatar(Pictures.png)
            let anonymous = try await server.send("POST", "/riders/me/avatar", headers: ["Content-Type": body.contentType],
                                                  body: body.data)
            #expect(anonymous.status == 401)
            #expect(anonymous.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            #expect(try await server.get("/riders/u_000000/avatar").status == 401)
            let wrongMethod = try await server.get("/riders/me/avatar", token: try await server.login().accessToken)
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.header("Allow") == "POST")
        }
    }

    @Test("a body that is not multipart/form-data with a boundary, or a part that is not JPEG or PNG, is 415")
    func unsupportedMediaTypes() async throws {
        try await TestServer.with(Self.configuration) { server in
            let token = try await server.login().accessToken
            let json = try await server.send("POST", "/riders/me/avatar",
                                             headers: ["Authorization": "Bearer \(token)", "Content-Type": "image/png"],
                                             body: Pictures.png)
            #expect(json.status == 415)
            #expect(json.header("Content-Type") == "application/problem+json")
            let noBoundary = try await server.send("POST", "/riders/me/avatar",
                                                   headers: ["Authorization": "Bearer \(token)", "Content-Type": "multipart/form-data"],
                                                   body: MultipartBody.avatar(Pictures.png).data)
            #expect(noBoundary.status == 415)

            for type in ["image/gif", "text/plain", nil] as [String?] {
                let response = try await upload(server, .avatar(Pictures.png, contentType: type), token: token)
                #expect(response.status == 415, "\(type ?? "no Content-Type")")
                #expect(try response.decode(ProblemBody.self).fields == ["avatar"])
            }
        }
    }

    @Test("a picture over the limit is 413 naming avatar; a body far past it is 413 without being read")
    func tooLarge() async throws {
        try await TestServer.with(Self.configuration) { server in
            let token = try await server.login().accessToken
            let overLimit = try await upload(server, .avatar(Pictures.png + Data(count: 4096)), token: token)
            #expect(overLimit.status == 413)
            let problem = try overLimit.decode(ProblemBody.self)
            #expect(problem.fields == ["avatar"])
            #expect(problem.type.hasSuffix("/content-too-large"))

            let huge = try await upload(server, .avatar(Pictures.png + Data(count: 64 * 1024)), token: token)
            #expect(huge.status == 413)
            #expect(try await server.get("/riders/u_000000/avatar", token: token).status == 404, "nothing was stored")
        }
    }

    @Test("content unlike its type, an empty picture, a missing, repeated or unknown part and broken multipart are 400")
    func badRequests() async throws {
        try await TestServer.with(Self.configuration) { server in
            let token = try await server.login().accessToken
            let cases: [(MultipartBody, [String])] = [
                (.avatar(Pictures.jpeg, contentType: "image/png"), ["avatar"]),
                (.avatar(Data("GIF89a".utf8), contentType: "image/png"), ["avatar"]),
                (.avatar(Data(), contentType: "image/png"), ["avatar"]),
                (MultipartBody(parts: []), ["avatar"]),
                (MultipartBody(parts: [.init(name: "avatar", data: Pictures.png), .init(name: "avatar", data: Pictures.png)]), ["avatar"]),
                (MultipartBody(parts: [.init(name: "avatar", data: Pictures.png), .init(name: "caption", data: Data("hi".utf8))]), ["caption"]),
            ]
            for (body, fields) in cases {
                let response = try await upload(server, body, token: token)
                #expect(response.status == 400, "\(fields): \(response.text)")
                #expect(try response.decode(ProblemBody.self).fields == fields)
            }

            let unterminated = MultipartBody.avatar(Pictures.png).data.dropLast(20)
            let broken = try await server.send("POST", "/riders/me/avatar",
                                               headers: ["Authorization": "Bearer \(token)",
                                                         "Content-Type": MultipartBody.avatar(Pictures.png).contentType],
                                               body: Data(unterminated))
            #expect(broken.status == 400)
            #expect(try await server.get("/riders/u_000000/avatar", token: token).status == 404, "nothing was stored")
        }
    }

    @Test("no upload yet, an unknown id and a deleted account are 404; a PATCH of avatar_url drops the uploaded picture")
    func notFound() async throws {
        try await TestServer.with(Self.configuration) { server in
            let token = try await server.login().accessToken
            #expect(try await server.get("/riders/u_000000/avatar", token: token).status == 404)
            #expect(try await server.get("/riders/u_999999/avatar", token: token).status == 404)

            _ = try await upload(server, .avatar(Pictures.png), token: token)
            let patched = try await server.patchRider(#"{"avatar_url":"https://cdn.example.com/me.png"}"#, token: token)
            #expect(patched.status == 200)
            #expect(try await server.get("/riders/u_000000/avatar", token: token).status == 404)

            let registered = try await server.postJSON("/auth/register",
                #"{"email":"leaving@example.com","password":"password 123","display_name":"Leaving","rider_type":"learner"}"#)
            #expect(registered.status == 201)
            let leaving = try await server.login("leaving@example.com", "password 123")
            _ = try await upload(server, .avatar(Pictures.png), token: leaving.accessToken)
            #expect(try await server.get("/riders/\(leaving.userID)/avatar", token: token).status == 200)
            let deleted = try await server.send("DELETE", "/riders/me", headers: ["Authorization": "Bearer \(leaving.accessToken)"])
            #expect(deleted.status == 204)
            #expect(try await server.get("/riders/\(leaving.userID)/avatar", token: token).status == 404)
        }
    }
}
