import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("Sports: ListSports, ListMySports, SetMySport, RemoveMySport")
struct SportsTests {
    static let catalogue: FixtureJSON = ["sports": [["id": "gravel", "name": "Gravel"], ["id": "mtb", "name": "Mountain bike"]]]

    @Test("the catalogue needs no session and is reused from memory until its max-age runs out")
    func catalogueIsKeptForMaxAge() async throws {
        let harness = try UseCaseHarness()
        harness.transport.stub(.get, "/sports", with: .successful(Self.catalogue, headers: ["Cache-Control": "public, max-age=86400"]))
        let listSports = harness.listSports

        let first = try await listSports()
        harness.clock.advance(by: 86_399)
        let second = try await listSports()
        harness.clock.advance(by: 1)
        let third = try await listSports()

        #expect(first.value == [Sport(id: "gravel", name: "Gravel"), Sport(id: "mtb", name: "Mountain bike")])
        #expect(first.source == .network)
        #expect(second.source == .cache && second.value == first.value)
        #expect(third.source == .network)
        #expect(harness.transport.count(.get, "/sports") == 2)
        #expect(harness.transport.requests.allSatisfy { $0.headers["Authorization"] == nil }, "the catalogue is public")
    }

    @Test("a catalogue sent with no-store or without max-age is asked for every time; reload always asks")
    func catalogueWithoutMaxAge() async throws {
        let harness = try UseCaseHarness()
        harness.transport.stub(.get, "/sports", times: 2, with: .successful(Self.catalogue, headers: ["Cache-Control": "no-store"]))
        harness.transport.stub(.get, "/sports", with: .successful(Self.catalogue, headers: ["Cache-Control": "max-age=60"]))
        let listSports = harness.listSports

        _ = try await listSports()
        _ = try await listSports()
        _ = try await listSports()
        let reloaded = try await listSports(reload: true)

        #expect(reloaded.source == .network)
        #expect(harness.transport.count(.get, "/sports") == 4)
    }

    @Test("the kept catalogue outlives the use case (a new run reads it), and a reload replaces it")
    func keptBetweenRuns() async throws {
        let harness = try UseCaseHarness()
        harness.transport.stub(.get, "/sports", times: 1, with: .successful(Self.catalogue, headers: ["Cache-Control": "max-age=3600"]))

        _ = try await harness.listSports()
        let nextRun = try await harness.listSports()

        #expect(nextRun.source == .cache)
        let kept = try #require(await harness.sportCatalogue.load())
        #expect(kept.expiresAt == Fixtures.epoch.addingTimeInterval(3600) && kept.sports.count == 2)
        #expect(harness.transport.count(.get, "/sports") == 1)
    }

    @Test("my sports come with their levels; an unknown level is a malformed response")
    func mySports() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.get, "/riders/me/sports", times: 1, with: .successful(
            ["sports": [["id": "gravel", "name": "Gravel", "level": "expert"]]]))
        harness.transport.stub(.get, "/riders/me/sports", times: 1, with: .successful(
            ["sports": [["id": "gravel", "name": "Gravel", "level": "legendary"]]]))

        let sports = try await harness.listMySports()
        #expect(sports == [RiderSport(sport: Sport(id: "gravel", name: "Gravel"), level: .expert)])
        #expect(harness.transport.requests.first?.bearerToken == Fixtures.accessToken)

        let error = await #expect(throws: RiderError.self) { try await harness.listMySports() }
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

        let saved = try await harness.setMySport("mtb", level: .beginner)

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

        await #expect(throws: RiderError.self) { try await harness.setMySport(SportID(id), level: .expert) }
        let error = await #expect(throws: RiderError.self) { try await harness.removeMySport(SportID(id)) }

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
            try await harness.setMySport("curling", level: .expert)
        }
        await #expect(throws: RiderError.invalidInput([FieldProblem(field: "sports", message: "must hold at most 20 entries")])) {
            try await harness.setMySport("road", level: .expert)
        }
        await #expect(throws: RiderError.self) { try await harness.removeMySport("bmx") }
    }

    @Test("removing a sport sends DELETE with the bearer token and accepts 204")
    func removeSport() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.delete, "/riders/me/sports/gravel", times: 1, with: .status(204))

        try await harness.removeMySport("gravel")

        #expect(harness.transport.requests.only?.bearerToken == Fixtures.accessToken)
    }

    @Test("signed out, my sports are .notSignedIn and nothing is sent")
    func signedOut() async throws {
        let harness = try UseCaseHarness()

        await #expect(throws: RiderError.notSignedIn) { try await harness.listMySports() }
        #expect(harness.transport.requests.isEmpty)
    }
}
