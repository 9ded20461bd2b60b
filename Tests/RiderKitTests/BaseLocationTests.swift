import Foundation
import RiderDomain
import RiderKit
import Testing
import TestSupport

@Suite("RiderKit.Profile: base location")
struct BaseLocationTests {
    static let stored: FixtureJSON = ["latitude": -33.9249, "longitude": 18.4241, "place_name": "Cape Town",
                                      "updated_at": .string(Fixtures.epochText)]

    @Test("the location is read with the bearer token; none set (404) is nil, not an error")
    func get() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.get, "/riders/me/base-location", times: 1, with: .successful(Self.stored))
        harness.transport.stub(.get, "/riders/me/base-location", times: 1, with: .problem(status: 404))

        let location = try #require(try await harness.profile.baseLocation())
        #expect(location == (try BaseLocation(latitude: -33.9249, longitude: 18.4241, placeName: "Cape Town",
                                              updatedAt: Fixtures.epoch)))
        #expect(harness.transport.requests.first?.bearerToken == Fixtures.accessToken)
        #expect(try await harness.profile.baseLocation() == nil)
    }

    @Test("setting PUTs latitude, longitude and the place name (null when there is none)")
    func set() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.put, "/riders/me/base-location", times: 1, with: .successful(
            ["latitude": 51.5, "longitude": -0.12, "place_name": .null, "updated_at": .string(Fixtures.epochText)]))

        let saved = try await harness.profile.setBaseLocation(try BaseLocation(latitude: 51.5, longitude: -0.12))

        let request = try #require(harness.transport.requests.only)
        let body = try #require(request.jsonObject)
        #expect(body["latitude"] as? Double == 51.5)
        #expect(body["longitude"] as? Double == -0.12)
        #expect(body["place_name"] is NSNull)
        #expect(saved.placeName == nil && saved.updatedAt == Fixtures.epoch)
    }

    @Test("field errors from the server are .invalidInput naming each field")
    func serverRejects() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.put, "/riders/me/base-location", times: 1, with: .problem(
            status: 422, errors: [(field: "place_name", message: "must be at most 100 characters long")]))

        await #expect(throws: RiderError.invalidInput([
            FieldProblem(field: "place_name", message: "must be at most 100 characters long"),
        ])) {
            try await harness.profile.setBaseLocation(try BaseLocation(latitude: 1, longitude: 2, placeName: "x"))
        }
    }

    @Test("a server that sends a point off the map is a malformed response")
    func malformedAnswer() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.get, "/riders/me/base-location", times: 1, with: .successful(
            ["latitude": 123.0, "longitude": 0, "place_name": .null]))

        let error = await #expect(throws: RiderError.self) { try await harness.profile.baseLocation() }
        guard let riderError = error, riderError.code == .malformedResponse else {
            Issue.record("expected .malformedResponse, got \(String(describing: error))")
            return
        }
    }
}
