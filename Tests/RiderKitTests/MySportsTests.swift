import Foundation
import RiderDomain
import RiderKit
import Testing
import TestSupport

@Suite("RiderKit.Sports: the signed-in rider's sports")
struct MySportsTests {
    @Test("my sports come with their levels; an unknown level is a malformed response")
    func mySports() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.get, "/riders/me/sports", times: 1, with: .successful(
            ["sports": [["id": "gravel", "name": "Gravel", "level": "expert"]]]))
        harness.transport.stub(.get, "/riders/me/sports", times: 1, with: .successful(
            ["sports": [["id": "gravel", "name": "Gravel", "level": "legendary"]]]))

        let sports = try await harness.sports.mine()
        #expect(sports == [RiderSport(sport: Sport(id: "gravel", name: "Gravel"), level: .expert)])
        #expect(harness.transport.requests.first?.bearerToken == Fixtures.accessToken)

        let error = await #expect(throws: RiderError.self) { try await harness.sports.mine() }
        guard let riderError = error, riderError.code == .malformedResponse, case let what = riderError.detail ?? "" else {
            Issue.record("expected .malformedResponse, got \(String(describing: error))")
            return
        }
        #expect(what.contains("legendary"))
    }

    @Test("adding a sport posts its level as JSON to /riders/me/sports/{id} and returns the saved sport")
    func setSport() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.post, "/riders/me/sports/mtb", times: 1, with: .successful(
            ["id": "mtb", "name": "Mountain bike", "level": "beginner"], status: 201))

        let saved = try await harness.sports.set("mtb", level: .beginner)

        #expect(saved == RiderSport(sport: Sport(id: "mtb", name: "Mountain bike"), level: .beginner))
        let request = try #require(harness.transport.requests.only)
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.jsonObject?["level"] as? String == "beginner")
        #expect(request.bearerToken == Fixtures.accessToken)
    }

    @Test("a sport id that is not in the catalogue's form is .invalidInput naming 'sport' and sends nothing",
          arguments: ["", "Gravel", "../riders", "a/b", String(repeating: "x", count: 41)])
    func malformedID(id: String) async throws {
        let harness = try UseCaseHarness.signedIn()

        let setting = await #expect(throws: RiderError.self) { try await harness.sports.set(SportID(id), level: .expert) }
        #expect(setting?.code == .invalidInput && setting?.fieldProblems.map(\.field) == ["sport"], "\(String(describing: setting))")
        let error = await #expect(throws: RiderError.self) { try await harness.sports.remove(SportID(id)) }

        guard let riderError = error, riderError.code == .invalidInput, case let problems = riderError.fieldProblems else {
            Issue.record("expected .invalidInput, got \(String(describing: error))")
            return
        }
        #expect(problems.map(\.field) == ["sport"])
        #expect(harness.transport.requests.isEmpty)
    }

    @Test("an unknown sport is .notFound; a level the server rejects is .invalidInput naming the field")
    func documentedErrors() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.post, "/riders/me/sports/curling", times: 1, with: .problem(status: 404, detail: "no such sport"))
        harness.transport.stub(.post, "/riders/me/sports/road", times: 1, with: .problem(
            status: 422, errors: [(field: "sports", message: "must hold at most 20 entries")]))
        harness.transport.stub(.delete, "/riders/me/sports/bmx", times: 1, with: .problem(status: 404))

        await #expect(throws: RiderError.notFound(detail: "no such sport")) {
            try await harness.sports.set("curling", level: .expert)
        }
        await #expect(throws: RiderError.invalidInput([FieldProblem(field: "sports", message: "must hold at most 20 entries")])) {
            try await harness.sports.set("road", level: .expert)
        }
        let unknown = await #expect(throws: RiderError.self) { try await harness.sports.remove("bmx") }
        #expect(unknown?.code == .notFound, "\(String(describing: unknown))")
    }

    @Test("removing a sport sends DELETE with the bearer token and accepts 204")
    func removeSport() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.delete, "/riders/me/sports/gravel", times: 1, with: .status(204))

        try await harness.sports.remove("gravel")

        #expect(harness.transport.requests.only?.bearerToken == Fixtures.accessToken)
    }

    @Test("signed out, my sports are .notSignedIn and nothing is sent")
    func signedOut() async throws {
        let harness = try UseCaseHarness()

        await #expect(throws: RiderError.notSignedIn) { try await harness.sports.mine() }
        #expect(harness.transport.requests.isEmpty)
    }
}
