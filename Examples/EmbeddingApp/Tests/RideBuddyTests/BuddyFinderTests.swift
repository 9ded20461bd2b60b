import RideBuddy
import RiderKit
import RiderKitTesting
import Testing

/// The app's logic against `RiderKit.testing()`: every request answered by a stub in the
/// process, the session in memory, the clock moved by hand.
@Suite("BuddyFinder")
struct BuddyFinderTests {
    @Test("signing in greets the rider by the name the server has")
    func greeting() async throws {
        let finder = BuddyFinder(rider: try RiderKit.testing())

        #expect(try await finder.signIn(email: Fixtures.email, password: "any password") == "Welcome back, Ada Lovelace!")
    }

    @Test("a wrong password gets a sentence, not an error code")
    func wrongPassword() async throws {
        let server = StubTransport.successful()
        server.stub(.post, "/auth/token", with: .tokenError("invalid_grant"))
        let finder = BuddyFinder(rider: try RiderKit.testing(transport: server))

        let error = await #expect(throws: RiderError.self) {
            try await finder.signIn(email: Fixtures.email, password: "wrong")
        }
        #expect(error.map(BuddyFinder.message(for:)) == "That email and password do not match.")
    }

    @Test("with no network the rider is told they are offline")
    func offline() async throws {
        let finder = BuddyFinder(rider: try RiderKit.testing(transport: StubTransport.failing()))

        let error = await #expect(throws: RiderError.self) {
            try await finder.signIn(email: Fixtures.email, password: "any password")
        }
        #expect(error.map(BuddyFinder.message(for:)) == "You seem to be offline; try again later.")
    }

    @Test("buddies leave the signed-in rider out")
    func buddies() async throws {
        let server = StubTransport.successful()
        let finder = BuddyFinder(rider: try RiderKit.testing(transport: server,
                                                             vault: InMemoryTokenVault(session: Fixtures.session())))

        #expect(try await finder.buddies(matching: "example.com") == ["Grace Hopper <grace@example.com>"])
        #expect(server.requests(.get, "/users/search").first?.queryFields["q"] == "example.com")
    }

    @Test("an expired session is renewed without the rider noticing")
    func expiredSession() async throws {
        let server = StubTransport.successful()
        let clock = ManualClock()
        let finder = BuddyFinder(rider: try RiderKit.testing(transport: server,
                                                             vault: InMemoryTokenVault(session: Fixtures.session()),
                                                             clock: clock))
        clock.advance(by: 2 * 3600)

        #expect(try await finder.buddies(matching: "grace").count == 1)
        #expect(server.requests(.post, "/auth/token").first?.formFields["grant_type"] == "refresh_token")
    }

    @Test("the motto is sent as a profile edit and comes back as saved")
    func motto() async throws {
        let server = StubTransport.successful()
        let finder = BuddyFinder(rider: try RiderKit.testing(transport: server,
                                                             vault: InMemoryTokenVault(session: Fixtures.session())))

        #expect(try await finder.setMotto("Gravel on weekends") == "Gravel on weekends")
        #expect(server.requests(.patch, "/riders/me").first?.jsonObject?["description"] as? String == "Gravel on weekends")
    }
}
