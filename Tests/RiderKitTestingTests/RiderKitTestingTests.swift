import Foundation
import RiderKit
import RiderKitTesting
import Testing

/// What an embedding program's tests get from `RiderKit.testing()`: every use case, answered by
/// the stub, with nothing leaving the process.
@Suite("RiderKit.testing")
struct RiderKitTestingTests {
    @Test("every use case runs against the successful stub")
    func everyUseCase() async throws {
        let server = StubTransport.successful()
        let rider = try RiderKit.testing(transport: server)

        let session = try await rider.login(Fixtures.credentials)
        #expect(session.userID == Fixtures.userID)
        #expect(try await rider.currentUser().value.email == Fixtures.email)
        #expect(try await rider.searchUsers("GRACE", page: PageRequest()).users.map(\.displayName) == ["Grace Hopper"])
        #expect(try await rider.getUser(Fixtures.otherUserID).value.displayName == "Grace Hopper")
        #expect(try await rider.listUsers(page: PageRequest(limit: 1)).hasNext)
        #expect(try await rider.profile.get().entityTag == EntityTag(rawValue: "\"v1\""))
        let updated = try await rider.profile.update(RiderPatch(description: .set("Rides every Sunday")))
        #expect(updated.description == "Rides every Sunday")
        #expect(updated.entityTag == EntityTag(rawValue: "\"v2\""))
        #expect(try await rider.sports.catalogue().value.map(\.id).contains("gravel"))
        #expect(try await rider.sports.set("mtb", level: .expert) == RiderSport(sport: Sport(id: "mtb", name: "Mountain bike"),
                                                                                 level: .expert))
        #expect(try await rider.sports.mine().map(\.id) == ["gravel"])
        try await rider.sports.remove("gravel")
        #expect(try await rider.profile.baseLocation()?.placeName == "Cape Town")
        let home = try BaseLocation(latitude: 51.5, longitude: -0.12, placeName: "London")
        #expect(try await rider.profile.setBaseLocation(home).placeName == "London")
        #expect(try await rider.profile.preferences().notifications.newsletter == false)
        #expect(try await rider.profile.updatePreferences { $0.notifications.newsletter = true }.notifications.newsletter)
        #expect(try await rider.sessions.refresh().accessToken == "stub-access-2")
        #expect(try await rider.register(Fixtures.registration) == Fixtures.otherUserID)
        #expect(try await rider.logout().revokedOnServer)
        #expect(try await rider.vault.loadSession() == nil)

        #expect(server.unexpectedRequests.isEmpty)
        #expect(server.requests.allSatisfy { $0.url.host == "api.example.test" })
    }

    @Test("a vault seeded with a session starts signed in; deleting the account signs out")
    func signedIn() async throws {
        let rider = try RiderKit.testing(vault: InMemoryTokenVault(session: Fixtures.session()))

        #expect(try await rider.sessions.currentSession()?.userID == Fixtures.userID)
        #expect(try await rider.deleteAccount().userID == Fixtures.userID)
        #expect(try await rider.sessions.currentSession() == nil)
    }

    @Test("the manual clock decides when the access token has expired, and the stub renews it")
    func expiry() async throws {
        let server = StubTransport.successful()
        let clock = ManualClock()
        let rider = try RiderKit.testing(transport: server, clock: clock)
        _ = try await rider.login(Fixtures.credentials)

        _ = try await rider.profile.get()
        #expect(server.count(.post, "/auth/token") == 1)

        clock.advance(by: 3600)
        _ = try await rider.profile.get()
        #expect(server.count(.post, "/auth/token") == 2)
        #expect(server.requests(.get, "/riders/me").last?.bearerToken == "stub-access-2")
    }

    @Test("a script wins over the successful stub's answer")
    func scriptWins() async throws {
        let server = StubTransport.successful()
        server.stub(.post, "/auth/token", times: 1, with: .tokenError("invalid_grant"))
        let rider = try RiderKit.testing(transport: server)

        await #expect(throws: RiderError.invalidCredentials) { try await rider.login(Fixtures.credentials) }
        #expect(try await rider.login(Fixtures.credentials).userID == Fixtures.userID)
    }

    @Test("the failing stub fails every request, so the offline paths can be tested")
    func failing() async throws {
        let rider = try RiderKit.testing(transport: StubTransport.failing(),
                                         vault: InMemoryTokenVault(session: Fixtures.session()))

        await #expect(throws: RiderError.serverUnreachable(reason: "connection refused")) { try await rider.profile.get() }
    }

    @Test("a path outside the contract is still unexpected on the successful stub")
    func outsideTheContract() async throws {
        let server = StubTransport.successful()
        let request = HTTPRequest(method: .get, url: try #require(URL(string: "https://api.example.test/nowhere")))

        var thrown: (any Error)?
        await withKnownIssue("the stub reports the unexpected request") {
            do { _ = try await server.send(request) } catch { thrown = error }
        } matching: { issue in
            // The stub's own report, not any other failure the body might have met.
            issue.comments.contains { $0.rawValue.contains("GET https://api.example.test/nowhere") }
        }
        #expect(thrown is UnexpectedRequestError)
        #expect(server.unexpectedRequests == [request])
    }

    @Test("the stub follows the base path of the configuration")
    func basePath() async throws {
        let api = try Fixtures.configuration(baseURL: "https://api.example.test/v1")
        let rider = try RiderKit.testing(api: api)

        _ = try await rider.login(Fixtures.credentials)
        #expect(try await rider.profile.get().userID == Fixtures.userID)
    }
}
