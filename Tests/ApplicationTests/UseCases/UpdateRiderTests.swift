import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("UpdateRider")
struct UpdateRiderTests {
    @Test("without a base tag it fetches the ETag first, then sends If-Match and a merge patch with null for removal")
    func fetchesTagThenPatches() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.get, "/riders/me", times: 1, with: .successful(Fixtures.rider(), headers: ["ETag": "\"v7\""]))
        harness.transport.stub(.patch, "/riders/me", times: 1, with: .successful(
            Fixtures.rider(displayName: "Ada L.", description: nil), headers: ["ETag": "\"v8\""]))

        let rider = try await harness.updateRider(RiderPatch(displayName: "Ada L.", description: .remove))

        #expect(harness.transport.requests.map(\.method) == [.get, .patch])
        let patch = try #require(harness.transport.requests(.patch, "/riders/me").first)
        #expect(patch.headers["If-Match"] == "\"v7\"")
        #expect(patch.headers["Content-Type"] == "application/merge-patch+json")
        #expect(patch.bearerToken == Fixtures.accessToken)
        let body = try #require(patch.jsonObject)
        #expect(Set(body.keys) == ["display_name", "description"])
        #expect(body["display_name"] as? String == "Ada L.")
        #expect(body["description"] is NSNull)
        #expect(rider.displayName == "Ada L.")
        #expect(rider.description == nil)
        #expect(rider.entityTag == EntityTag(rawValue: "\"v8\""))
    }

    @Test("with a base tag it patches at once, conditional on that tag")
    func usesGivenTag() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.patch, "/riders/me", times: 1, with: .successful(Fixtures.rider(), headers: ["ETag": "\"v2\""]))
        let avatar = try #require(URL(string: "https://cdn.example.com/ada.png"))

        _ = try await harness.updateRider(RiderPatch(riderType: .mentor, avatarURL: .set(avatar), sports: []),
                                          basedOn: Fixtures.entityTag)

        let patch = try #require(harness.transport.requests.only)
        #expect(patch.headers["If-Match"] == Fixtures.entityTag.rawValue)
        let body = try #require(patch.jsonObject)
        #expect(Set(body.keys) == ["rider_type", "avatar_url", "sports"])
        #expect(body["rider_type"] as? String == "mentor")
        #expect(body["avatar_url"] as? String == "https://cdn.example.com/ada.png")
        #expect((body["sports"] as? [Any])?.isEmpty == true)
    }

    @Test("412 is .conflict carrying the profile as it is now")
    func conflict() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.patch, "/riders/me", times: 1, with: .problem(
            status: 412, detail: "the profile changed", headers: ["ETag": "\"v9\""]))
        harness.transport.stub(.get, "/riders/me", times: 1, with: .successful(
            Fixtures.rider(displayName: "Changed Elsewhere"), headers: ["ETag": "\"v9\""]))

        let error = await #expect(throws: RiderError.self) {
            try await harness.updateRider(RiderPatch(displayName: "Mine"), basedOn: Fixtures.entityTag)
        }

        guard let riderError = error, riderError.code == .conflict, case let current = riderError.current else {
            Issue.record("expected .conflict, got \(String(describing: error))")
            return
        }
        #expect(current?.displayName == "Changed Elsewhere")
        #expect(current?.entityTag == EntityTag(rawValue: "\"v9\""))
    }

    @Test("an empty patch is .invalidInput and sends nothing")
    func emptyPatch() async throws {
        let harness = try UseCaseHarness.signedIn()

        let error = await #expect(throws: RiderError.self) { try await harness.updateRider(RiderPatch()) }
        guard let riderError = error, riderError.code == .invalidInput else {
            Issue.record("expected .invalidInput, got \(String(describing: error))")
            return
        }
        #expect(harness.transport.requests.isEmpty)
    }

    @Test("field errors from the server are .invalidInput naming each field")
    func validationErrors() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.patch, "/riders/me", times: 1, with: .problem(status: 422, errors: [
            (field: "display_name", message: "must be 1 to 60 characters"),
            (field: "sports[0]", message: "must be 1 to 40 characters"),
        ]))

        await #expect(throws: RiderError.invalidInput([
            FieldProblem(field: "display_name", message: "must be 1 to 60 characters"),
            FieldProblem(field: "sports[0]", message: "must be 1 to 40 characters"),
        ])) {
            try await harness.updateRider(RiderPatch(displayName: "", sports: [""]), basedOn: Fixtures.entityTag)
        }
    }
}
