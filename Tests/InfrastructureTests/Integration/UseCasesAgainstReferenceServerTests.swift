import Foundation
import RiderApplication
import RiderDomain
import RiderInfrastructure
import RiderKit
import RiderReferenceServer
import Testing
import TestSupport

/// The client and the reference server are independent implementations of docs/openapi.yaml;
/// these tests prove they agree, through RiderKit as `RiderKit.live` wires it (the default HTTP
/// transport) over loopback.
@Suite("Use cases against the reference server")
struct UseCasesAgainstReferenceServerTests {
    @Test("login, whoami, search, profile update, refresh and logout work end to end")
    func happyPath() async throws {
        try await withReferenceServer { server in
            let kit = try server.riderKit()

            let session = try await kit.login(.referenceDemo)
            #expect(session.userID == "u_000000")
            #expect(try await kit.vault.loadSession() == session)

            let me = try await kit.currentUser()
            #expect(me.email == "demo@example.com")

            let page = try await kit.searchUsers("jose", page: PageRequest(limit: 50))
            #expect(page.users.contains { $0.displayName.hasPrefix("José") })
            #expect(page.users.allSatisfy {
                $0.displayName.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).contains("jose")
                    || $0.email.contains("jose")
            })

            let updated = try await kit.profile.update(RiderPatch(description: .set("Coast road on Sundays"), sports: ["road"]))
            #expect(updated.description == "Coast road on Sundays")
            #expect(updated.entityTag != nil)
            let cleared = try await kit.profile.update(RiderPatch(description: .remove), basedOn: updated.entityTag)
            #expect(cleared.description == nil)

            let renewed = try await kit.sessions.refresh()
            #expect(renewed.accessToken != session.accessToken)
            #expect(renewed.refreshToken != session.refreshToken)

            let outcome = try await kit.logout()
            #expect(outcome == Logout.Outcome(wasSignedIn: true, revokedOnServer: true))
            #expect(try await kit.vault.loadSession() == nil)
            await #expect(throws: RiderError.notSignedIn) { try await kit.currentUser() }
        }
    }

    @Test("a wrong password is invalidCredentials and stores nothing")
    func wrongPassword() async throws {
        try await withReferenceServer { server in
            let kit = try server.riderKit()

            await #expect(throws: RiderError.invalidCredentials) {
                try await kit.login(Credentials(email: "demo@example.com", password: "wrong-password"))
            }
            #expect(try await kit.vault.loadSession() == nil)
        }
    }

    @Test("an edit based on an old version is refused with the current profile, nothing overwritten")
    func conflictingEdit() async throws {
        try await withReferenceServer { server in
            let kit = try server.riderKit()
            _ = try await kit.login(.referenceDemo)
            let original = try await kit.profile.get()
            let theirs = try await kit.profile.update(RiderPatch(displayName: "Edited Elsewhere"), basedOn: original.entityTag)

            await #expect {
                try await kit.profile.update(RiderPatch(displayName: "Mine"), basedOn: original.entityTag)
            } throws: { error in
                guard let riderError = error as? RiderError, riderError.code == .conflict, case let current = riderError.current else { return false }
                return current?.displayName == "Edited Elsewhere" && current?.entityTag == theirs.entityTag
            }
            #expect(try await kit.profile.get().displayName == "Edited Elsewhere")
        }
    }

    @Test("100 concurrent requests on expired tokens cause exactly one refresh, and all succeed")
    func concurrentExpiry() async throws {
        try await withReferenceServer { server in
            let kit = try server.riderKit()
            _ = try await kit.login(.referenceDemo)
            await server.store.expireAccessTokens()
            let refreshesBefore = await server.store.stats().refreshGrants

            let ids = try await withThrowingTaskGroup(of: UserID.self) { group in
                for _ in 0..<100 { group.addTask { try await kit.currentUser().id } }
                var ids: [UserID] = []
                for try await id in group { ids.append(id) }
                return ids
            }

            #expect(ids.count == 100 && Set(ids) == ["u_000000"])
            #expect(await server.store.stats().refreshGrants - refreshesBefore == 1)
            #expect(await kit.sessions.refreshCount == 1)
        }
    }

    @Test("a refresh token the server no longer accepts ends the session: vault emptied, sessionExpired")
    func rejectedRefreshToken() async throws {
        try await withReferenceServer { server in
            let kit = try server.riderKit()
            let session = try await kit.login(.referenceDemo)
            // Spend the refresh token behind the engine's back, as another device holding the
            // same session would.
            let otherDevice = try server.riderKit()
            try await otherDevice.vault.saveSession(session)
            _ = try await otherDevice.sessions.refresh()
            await server.store.expireAccessTokens()

            await #expect(throws: RiderError.sessionExpired) { try await kit.currentUser() }
            #expect(try await kit.vault.loadSession() == nil)
        }
    }

    @Test("unknown user → notFound; register → id, then the same email → alreadyExists")
    func notFoundAndRegistration() async throws {
        try await withReferenceServer { server in
            let kit = try server.riderKit()
            _ = try await kit.login(.referenceDemo)

            await #expect {
                try await kit.getUser("u_999999")
            } throws: { error in
                guard let riderError = error as? RiderError, riderError.code == .notFound else { return false }
                return true
            }
            let registration = Registration(email: "new.rider@example.com", password: "long-enough-1",
                                            displayName: "New Rider", riderType: .learner)
            let id = try await kit.register(registration)
            #expect(try await kit.getUser(id).email == "new.rider@example.com")
            await #expect {
                try await kit.register(registration)
            } throws: { error in
                guard let riderError = error as? RiderError, riderError.code == .alreadyExists else { return false }
                return true
            }
        }
    }

    @Test("server-side validation comes back as field problems")
    func validation() async throws {
        try await withReferenceServer { server in
            let kit = try server.riderKit()
            _ = try await kit.login(.referenceDemo)

            await #expect {
                try await kit.profile.update(RiderPatch(description: .set(String(repeating: "x", count: 501))))
            } throws: { error in
                guard let riderError = error as? RiderError, riderError.code == .invalidInput, case let problems = riderError.fieldProblems else { return false }
                return problems.contains { $0.field == "description" }
            }
        }
    }
}
