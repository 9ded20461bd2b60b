import Foundation
import RiderReferenceServer
import Testing

@Suite("Errors outside the routes' own rules")
struct ProtocolErrorTests {
    @Test("an unknown path answers 404 problem+json", arguments: ["/", "/nope", "/users/", "/users/u_000001/extra", "/auth"])
    func unknownPath(path: String) async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 1, accessTokenTTL: .seconds(3600))) { server in
            let response = try await server.get(path)
            #expect(response.status == 404)
            #expect(response.header("Content-Type") == "application/problem+json")
            let problem = try response.decode(ProblemBody.self)
            #expect(problem.type == "https://riderkit.invalid/problems/not-found")
            #expect(problem.status == 404)
        }
    }

    @Test("a known path with the wrong method answers 405 with Allow")
    func wrongMethod() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let response = try await server.send("PUT", "/riders/me")
            #expect(response.status == 405)
            #expect(response.header("Allow") == "GET, PATCH, DELETE, HEAD")
            #expect(try response.decode(ProblemBody.self).status == 405)
            let token = try await server.send("GET", "/auth/token")
            #expect(token.status == 405)
            #expect(token.header("Allow") == "POST")
        }
    }

    @Test("HEAD is answered like GET without a body")
    func head() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let token = try await server.login().accessToken
            let response = try await server.send("HEAD", "/riders/me", headers: ["Authorization": "Bearer \(token)"])
            #expect(response.status == 200)
            #expect(response.header("ETag") != nil)
            #expect(response.body.isEmpty)
        }
    }

    @Test("a body over 64 KiB answers 413 problem+json and the server keeps serving")
    func bodyTooLarge() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let token = try await server.login().accessToken
            let huge = #"{"description":""# + String(repeating: "x", count: 100 * 1024) + #""}"#
            let response = try await server.patchRider(huge, token: token)
            #expect(response.status == 413)
            #expect(response.header("Content-Type") == "application/problem+json")
            let register = try await server.postJSON("/auth/register", huge)
            #expect(register.status == 413)
            let tokenRequest = try await server.postForm("/auth/token", [("grant_type", String(repeating: "p", count: 70_000))])
            #expect(tokenRequest.status == 400)
            #expect(try tokenRequest.decode(TokenErrorBody.self).error == "invalid_request")
            #expect(try await server.get("/auth/me", token: token).status == 200)
        }
    }

    @Test("hostile JSON never crashes the server")
    func hostileJSON() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let token = try await server.login().accessToken
            let bodies = [
                String(repeating: "[", count: 10_000),
                #"{"display_name":"\ud800"}"#,
                #"{"sports":[1e999]}"#,
                "\u{FEFF}{}",
                #"{"description":"a","description":"b"}"#,
                String(decoding: [0xFF, 0xFE, 0x00], as: UTF8.self),
            ]
            for body in bodies {
                let response = try await server.patchRider(body, token: token)
                #expect([200, 400, 422].contains(response.status), "\(response.status) for \(body.prefix(20))")
            }
            #expect(try await server.get("/riders/me", token: token).status == 200)
        }
    }
}
