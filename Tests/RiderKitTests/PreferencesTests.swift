import Foundation
import RiderDomain
import RiderKit
import Testing
import TestSupport

@Suite("RiderKit.Profile: preferences (reading, and UpdatePreferences through it)")
struct PreferencesTests {
    /// What a newer server sends: every known setting plus some this client has never heard of.
    static let newerServer: FixtureJSON = [
        "notifications": ["ride_invitations": true, "messages": false, "newsletter": false, "weekly_digest": true],
        "visibility": ["profile": "friends-of-friends", "show_base_location": true],
        "units": "imperial",
    ]

    @Test("known settings are typed; an unknown visibility value is kept as it came")
    func typedModel() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.get, "/riders/me/preferences", times: 1, with: .successful(Self.newerServer))

        let preferences = try await harness.profile.preferences()

        #expect(preferences.notifications == NotificationSettings(rideInvitations: true, messages: false, newsletter: false))
        #expect(preferences.visibility.profile.rawValue == "friends-of-friends")
        #expect(preferences.visibility.showBaseLocation)
    }

    @Test("an update sends back every setting it does not know, nested or not, exactly as the server sent it")
    func unknownSettingsSurviveARoundTrip() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.get, "/riders/me/preferences", times: 1, with: .successful(Self.newerServer))
        harness.transport.stub(.put, "/riders/me/preferences", times: 1) { request in
            .response(HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: request.body ?? Data()))
        }

        let saved = try await harness.profile.updatePreferences { $0.notifications.newsletter = true }

        let body = try #require(harness.transport.requests(.put, "/riders/me/preferences").only?.jsonObject)
        #expect(body["units"] as? String == "imperial")
        let notifications = try #require(body["notifications"] as? [String: Any])
        #expect(notifications["weekly_digest"] as? Bool == true)
        #expect(notifications["newsletter"] as? Bool == true)
        #expect(notifications["messages"] as? Bool == false)
        let visibility = try #require(body["visibility"] as? [String: Any])
        #expect(visibility["profile"] as? String == "friends-of-friends")
        #expect(saved.notifications.newsletter)
    }

    @Test("a known setting of the wrong type is a malformed response, not a crash")
    func wrongType() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.get, "/riders/me/preferences", times: 1, with: .successful(
            ["notifications": ["messages": "yes"]]))

        let error = await #expect(throws: RiderError.self) { try await harness.profile.preferences() }
        guard let riderError = error, riderError.code == .malformedResponse else {
            Issue.record("expected .malformedResponse, got \(String(describing: error))")
            return
        }
    }

    @Test("a value the server rejects is .invalidInput naming the field; signed out nothing is sent")
    func errors() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.get, "/riders/me/preferences", times: 1, with: .successful(Self.newerServer))
        harness.transport.stub(.put, "/riders/me/preferences", times: 1, with: .problem(
            status: 422, errors: [(field: "visibility.profile", message: "must be everyone, members or nobody")]))

        await #expect(throws: RiderError.invalidInput([
            FieldProblem(field: "visibility.profile", message: "must be everyone, members or nobody"),
        ])) {
            try await harness.profile.updatePreferences { $0.visibility.profile = ProfileVisibility(rawValue: "aliens") }
        }

        let signedOut = try UseCaseHarness()
        await #expect(throws: RiderError.notSignedIn) { try await signedOut.profile.preferences() }
        #expect(signedOut.transport.requests.isEmpty)
    }
}
