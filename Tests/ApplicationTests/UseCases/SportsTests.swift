import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("ListSports: the sport catalogue")
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
}
