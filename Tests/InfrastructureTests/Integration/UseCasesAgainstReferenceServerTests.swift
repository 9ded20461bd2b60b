import Foundation
import RiderApplication
import RiderDomain
import RiderInfrastructure
import RiderReferenceServer
import Testing

/// The client and the reference server are independent implementations of docs/openapi.yaml;
/// these tests prove they agree, through the real (default) HTTP transport over loopback.
@Suite("Use cases against the reference server")
struct UseCasesAgainstReferenceServerTests {
    @Test("login, whoami, search, profile update, refresh and logout work end to end")
    func happyPath() async throws {
        let harness = try await ReferenceServerHarness.start()
        defer { Task { await harness.stop() } }

        let session = try await harness.login(ReferenceServerHarness.demo)
        #expect(session.userID == "u_000000")
        #expect(try await harness.vault.loadSession() == session)

        let me = try await harness.currentUser()
        #expect(me.email == "demo@example.com")

        let page = try await harness.searchUsers("jose", page: PageRequest(limit: 50))
        #expect(page.users.contains { $0.displayName.hasPrefix("José") })
        #expect(page.users.allSatisfy {
            $0.displayName.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).contains("jose")
                || $0.email.contains("jose")
        })

        let updated = try await harness.updateRider(RiderPatch(description: .set("Coast road on Sundays"), sports: ["road"]))
        #expect(updated.description == "Coast road on Sundays")
        #expect(updated.entityTag != nil)
        let cleared = try await harness.updateRider(RiderPatch(description: .remove), basedOn: updated.entityTag)
        #expect(cleared.description == nil)

        let renewed = try await harness.refreshSession()
        #expect(renewed.accessToken != session.accessToken)
        #expect(renewed.refreshToken != session.refreshToken)

        let outcome = try await harness.logout()
        #expect(outcome == Logout.Outcome(wasSignedIn: true, revokedOnServer: true))
        #expect(try await harness.vault.loadSession() == nil)
        await #expect(throws: RiderError.notSignedIn) { try await harness.currentUser() }
    }

    @Test("a wrong password is invalidCredentials and stores nothing")
    func wrongPassword() async throws {
        let harness = try await ReferenceServerHarness.start()
        defer { Task { await harness.stop() } }

        await #expect(throws: RiderError.invalidCredentials) {
            try await harness.login(Credentials(email: "demo@example.com", password: "wrong-password"))
        }
        #expect(try await harness.vault.loadSession() == nil)
    }

    @Test("an edit based on an old version is refused with the current profile, nothing overwritten")
    func conflictingEdit() async throws {
        let harness = try await ReferenceServerHarness.start()
        defer { Task { await harness.stop() } }
        _ = try await harness.login(ReferenceServerHarness.demo)
        let original = try await harness.getRider()
        let theirs = try await harness.updateRider(RiderPatch(displayName: "Edited Elsewhere"), basedOn: original.entityTag)

        await #expect {
            try await harness.updateRider(RiderPatch(displayName: "Mine"), basedOn: original.entityTag)
        } throws: { error in
            guard case RiderError.conflict(let current) = error else { return false }
            return current?.displayName == "Edited Elsewhere" && current?.entityTag == theirs.entityTag
        }
        #expect(try await harness.getRider().displayName == "Edited Elsewhere")
    }

    @Test("100 concurrent requests on expired tokens cause exactly one refresh, and all succeed")
    func concurrentExpiry() async throws {
        let harness = try await ReferenceServerHarness.start()
        defer { Task { await harness.stop() } }
        _ = try await harness.login(ReferenceServerHarness.demo)
        await harness.server.store.expireAccessTokens()
        let refreshesBefore = await harness.server.store.stats().refreshGrants

        let ids = try await withThrowingTaskGroup(of: UserID.self) { group in
            for _ in 0..<100 { group.addTask { try await harness.currentUser().id } }
            var ids: [UserID] = []
            for try await id in group { ids.append(id) }
            return ids
        }

        #expect(ids.count == 100 && Set(ids) == ["u_000000"])
        #expect(await harness.server.store.stats().refreshGrants - refreshesBefore == 1)
        #expect(await harness.sessions.refreshCount == 1)
    }

    @Test("a refresh token the server no longer accepts ends the session: vault emptied, sessionExpired")
    func rejectedRefreshToken() async throws {
        let harness = try await ReferenceServerHarness.start()
        defer { Task { await harness.stop() } }
        let session = try await harness.login(ReferenceServerHarness.demo)
        // Spend the refresh token behind the engine's back, as another device would.
        let refresh = try #require(session.refreshToken)
        _ = try await harness.client.send(API.refreshGrant(refresh, in: harness.api))
        await harness.server.store.expireAccessTokens()

        await #expect(throws: RiderError.sessionExpired) { try await harness.currentUser() }
        #expect(try await harness.vault.loadSession() == nil)
    }

    @Test("unknown user → notFound; register → id, then the same email → alreadyExists")
    func notFoundAndRegistration() async throws {
        let harness = try await ReferenceServerHarness.start()
        defer { Task { await harness.stop() } }
        _ = try await harness.login(ReferenceServerHarness.demo)

        await #expect {
            try await harness.getUser("u_999999")
        } throws: { error in
            guard case RiderError.notFound = error else { return false }
            return true
        }
        let registration = Registration(email: "new.rider@example.com", password: "long-enough-1",
                                        displayName: "New Rider", riderType: .learner)
        let id = try await harness.register(registration)
        #expect(try await harness.getUser(id).email == "new.rider@example.com")
        await #expect {
            try await harness.register(registration)
        } throws: { error in
            guard case RiderError.alreadyExists = error else { return false }
            return true
        }
    }

    @Test("server-side validation comes back as field problems")
    func validation() async throws {
        let harness = try await ReferenceServerHarness.start()
        defer { Task { await harness.stop() } }
        _ = try await harness.login(ReferenceServerHarness.demo)

        await #expect {
            try await harness.updateRider(RiderPatch(description: .set(String(repeating: "x", count: 501))))
        } throws: { error in
            guard case RiderError.invalidInput(let problems) = error else { return false }
            return problems.contains { $0.field == "description" }
        }
    }
}
