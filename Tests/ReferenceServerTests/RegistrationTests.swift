import Foundation
import RiderReferenceServer
import Testing

@Suite("POST /auth/register")
struct RegistrationTests {
    @Test("a valid registration answers 201 with the id and a Location, and the account can log in")
    func register() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 10, accessTokenTTL: .seconds(3600))) { server in
            let response = try await server.postJSON(
                "/auth/register",
                #"{"email":"new.rider@example.com","password":"long-enough","display_name":"  Zoë Ødegaard ","rider_type":"mentor"}"#
            )
            #expect(response.status == 201)
            let id = try #require(try response.object()["id"] as? String)
            #expect(id == "u_000011")
            #expect(response.header("Location") == "/users/u_000011")
            let token = try await server.login("new.rider@example.com", "long-enough")
            #expect(token.userID == id)
            let user = try await server.get("/users/\(id)", token: token.accessToken).decode(UserBody.self)
            #expect(user.displayName == "Zoë Ødegaard")
            #expect(user.role == "user")
            #expect(user.riderType == "mentor")
            let rider = try await server.get("/riders/me", token: token.accessToken).decode(RiderBody.self)
            #expect(rider.description == nil && rider.avatarURL == nil && rider.sports.isEmpty)
        }
    }

    @Test("a taken email, in any case, answers 409")
    func emailTaken() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let response = try await server.postJSON(
                "/auth/register",
                #"{"email":"DEMO@example.com","password":"long-enough","display_name":"Copy","rider_type":"learner"}"#
            )
            #expect(response.status == 409)
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(try response.decode(ProblemBody.self).status == 409)
        }
    }

    @Test("invalid fields answer 422 with one error per field")
    func validation() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let response = try await server.postJSON(
                "/auth/register",
                #"{"email":"not-an-address","password":"short","display_name":"   ","rider_type":"pro"}"#
            )
            #expect(response.status == 422)
            let problem = try response.decode(ProblemBody.self)
            #expect(Set(problem.fields) == ["email", "password", "display_name", "rider_type"])
            #expect(problem.type == "https://riderkit.invalid/problems/validation-failed")
        }
    }

    @Test("missing and mistyped fields are named")
    func missingFields() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let response = try await server.postJSON("/auth/register", #"{"email":42,"display_name":"Ana"}"#)
            #expect(response.status == 422)
            #expect(Set(try response.decode(ProblemBody.self).fields) == ["email", "password", "rider_type"])
        }
    }

    @Test("a display name of 61 characters is too long, 60 is fine")
    func displayNameLength() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let long = String(repeating: "é", count: 61)
            let tooLong = try await server.postJSON(
                "/auth/register",
                #"{"email":"a@example.com","password":"long-enough","display_name":"\#(long)","rider_type":"learner"}"#
            )
            #expect(tooLong.status == 422)
            let fine = try await server.postJSON(
                "/auth/register",
                #"{"email":"a@example.com","password":"long-enough","display_name":"\#(long.dropLast())","rider_type":"learner"}"#
            )
            #expect(fine.status == 201)
        }
    }

    @Test("malformed JSON answers 400 and a non-JSON content type 415")
    func malformedBodies() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let malformed = try await server.postJSON("/auth/register", #"{"email": "#)
            #expect(malformed.status == 400)
            #expect(try malformed.decode(ProblemBody.self).type == "https://riderkit.invalid/problems/malformed-json")
            let array = try await server.postJSON("/auth/register", "[1, 2]")
            #expect(array.status == 400)
            let form = try await server.postForm("/auth/register", [("email", "a@example.com")])
            #expect(form.status == 415)
        }
    }
}
