import Foundation
import RiderApplication
import RiderDomain
import RiderInfrastructure
import RiderKit
import RiderReferenceServer
import Testing
import TestSupport

/// The real client stack (each HTTP transport, session engine, SQLite cache file) talking to the
/// reference server through ``FaultInjectingProxy``, which breaks the network the way real ones
/// break. Each scenario asserts
/// the typed error, how many attempts the proxy saw and how many reached the server, and that
/// the vault and the cache are intact afterwards.
@Suite("Faults between client and server", .serialized)
struct FaultInjectionTests {
    static let token = "POST /auth/token"
    static let revoke = "POST /auth/revoke"
    static let me = "GET /auth/me"
    static let search = "GET /users/search"
    static let rider = "PATCH /riders/me"
    static let html = "<!doctype html><html><body><h1>Welcome to our maintenance page</h1></body></html>"

    /// Server, proxy in front of it, and RiderKit as `RiderKit.live` wires it with the proxy as its
    /// server and a SQLite cache file.
    struct Rig {
        let server: RunningReferenceServer
        let proxy: FaultInjectingProxy
        let kit: RiderKit

        var vault: any TokenVault { kit.vault }
        var sessions: SessionEngine { kit.sessions }
        var login: Login { kit.login }
        var logout: Logout { kit.logout }
        var currentUser: CurrentUser { kit.currentUser }
        var searchUsers: SearchUsers { kit.searchUsers }
        var profile: RiderKit.Profile { kit.profile }

        /// The cache still opens and answers the search made at the start.
        func expectCacheIntact(sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let page = try await kit.searchUsers("demo", page: try PageRequest(), policy: .cacheOnly)
            #expect(!page.users.isEmpty, "the cached search is gone", sourceLocation: sourceLocation)
        }
    }

    /// Runs `body` with a fresh rig, signed in unless told and with one search cached, and tears
    /// it down whatever happens.
    func withRig(_ transport: TransportKind, signedIn: Bool = true, _ body: (Rig) async throws -> Void) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try await withReferenceServer(.init(seedUsers: 50, accessTokenTTL: .seconds(3600))) { server in
            let proxy = try FaultInjectingProxy(upstream: server.baseURL)
            defer { proxy.stop() }
            let kit = try server.riderKit(
                api: APIConfiguration(baseURL: proxy.baseURL, requestTimeout: 60),
                cache: CacheConfiguration(storage: .sqlite(folder.url.appendingPathComponent("users.sqlite"))),
                transport: transport.make(timeout: 60))
            if signedIn {
                _ = try await kit.login(.referenceDemo)
                _ = try await kit.searchUsers("demo", page: try PageRequest(), policy: .networkOnly)
            }
            try await body(Rig(server: server, proxy: proxy, kit: kit))
        }
    }

    // MARK: - Login

    @Test("login: 503, HTML with 200, a dropped connection or a cut-short body is one attempt, a typed error, and no session",
          arguments: TransportKind.allCases, [
              (FaultInjectingProxy.Fault.answer(status: 503, body: "{}"), "server"),
              (.answer(status: 200, headers: [("Content-Type", "text/html")], body: html), "malformed"),
              (.dropBeforeForwarding, "unreachable"),
              (.truncateBody, "unreachable"),
          ] as [(FaultInjectingProxy.Fault, String)])
    func loginFaults(_ transport: TransportKind, scenario: (fault: FaultInjectingProxy.Fault, kind: String)) async throws {
        let (fault, kind) = scenario
        try await withRig(transport, signedIn: false) { (rig: Rig) async throws in
            rig.proxy.script(Self.token, [fault])

            let error = await #expect(throws: RiderError.self) { try await rig.login(Credentials.referenceDemo) }

            #expect(Self.kind(of: error) == kind, "\(String(describing: error))")
            #expect(rig.proxy.attempts(Self.token) == 1, "POST to the token endpoint is never retried")
            #expect(try await rig.vault.loadSession() == nil)
        }
    }

    @Test("login: tokens issued but the answer lost — no session is kept; the next login works",
          arguments: TransportKind.allCases)
    func loginAnswerLost(_ transport: TransportKind) async throws {
        try await withRig(transport, signedIn: false) { (rig: Rig) async throws in
            rig.proxy.script(Self.token, [.dropAfterForwarding])

            let lost = await #expect(throws: RiderError.self) { try await rig.login(Credentials.referenceDemo) }
            #expect(lost?.code == .serverUnreachable, "\(String(describing: lost))")
            #expect(rig.proxy.reachedServer(Self.token) == 1)
            #expect(await rig.server.store.stats().passwordGrants == 1, "the server did issue tokens")
            #expect(try await rig.vault.loadSession() == nil)

            let session = try await rig.login(Credentials.referenceDemo)
            #expect(try await rig.vault.loadSession() == session)
        }
    }

    // MARK: - Reads

    @Test("search: 503, 502 and 429 (Retry-After: 1) then success — retried, the answer cached",
          arguments: TransportKind.allCases)
    func searchRecovers(_ transport: TransportKind) async throws {
        try await withRig(transport) { (rig: Rig) async throws in
            rig.proxy.script(Self.search, [
                .answer(status: 503), .answer(status: 429, headers: [("Retry-After", "1")]),
            ])

            let page = try await rig.searchUsers("demo", page: try PageRequest(), policy: .networkOnly)

            #expect(page.source == .network)
            #expect(rig.proxy.attempts(Self.search) == 3)
            #expect(rig.proxy.reachedServer(Self.search) == 1)
            try await rig.expectCacheIntact()
        }
    }

    @Test("search: every attempt dropped or cut short — .serverUnreachable after 3 attempts; vault and cache intact",
          arguments: TransportKind.allCases, [FaultInjectingProxy.Fault.dropBeforeForwarding, .dropAfterForwarding, .truncateBody])
    func searchGivesUp(_ transport: TransportKind, fault: FaultInjectingProxy.Fault) async throws {
        try await withRig(transport) { (rig: Rig) async throws in
            let session = try await rig.vault.loadSession()
            rig.proxy.always(Self.search, fault)

            let error = await #expect(throws: RiderError.self) {
                try await rig.searchUsers("demo", page: try PageRequest(), policy: .networkOnly)
            }

            #expect(Self.kind(of: error) == "unreachable", "\(String(describing: error))")
            #expect(rig.proxy.attempts(Self.search) == 3)
            #expect(try await rig.vault.loadSession() == session)
            try await rig.expectCacheIntact()
        }
    }

    @Test("current user: JSON of the wrong shape with 200 is .malformedResponse, not retried; vault and cache intact",
          arguments: TransportKind.allCases, [#"{"id": 5, "email": []}"#, #"{"users": "#, "null"])
    func wrongShape(_ transport: TransportKind, body: String) async throws {
        try await withRig(transport) { (rig: Rig) async throws in
            let session = try await rig.vault.loadSession()
            rig.proxy.always(Self.me, .answer(status: 200, headers: [("Content-Type", "application/json")], body: body))

            let error = await #expect(throws: RiderError.self) { try await rig.currentUser(policy: .networkOnly) }

            #expect(Self.kind(of: error) == "malformed", "\(String(describing: error))")
            #expect(rig.proxy.attempts(Self.me) == 1)
            #expect(try await rig.vault.loadSession() == session)
            try await rig.expectCacheIntact()
        }
    }

    // MARK: - Session

    @Test("401 to every token: one refresh, then .sessionExpired; the refreshed session is kept",
          arguments: TransportKind.allCases)
    func unauthorizedForever(_ transport: TransportKind) async throws {
        try await withRig(transport) { (rig: Rig) async throws in
            rig.proxy.always(Self.me, .answer(status: 401, headers: [("WWW-Authenticate", #"Bearer error="invalid_token""#)],
                                              body: #"{"title":"Unauthorized","status":401}"#))
            rig.proxy.script(Self.token, [])

            await #expect(throws: RiderError.sessionExpired) { try await rig.currentUser(policy: .networkOnly) }

            #expect(rig.proxy.attempts(Self.me) == 2, "the request, and its retry after the refresh")
            #expect(rig.proxy.reachedServer(Self.token) == 1, "exactly one refresh")
            #expect(await rig.sessions.refreshCount == 1)
            #expect(try await rig.vault.loadSession() != nil)
        }
    }

    @Test("refresh answer lost after the server rotated the token: the session stays; the next refresh says sign in again",
          arguments: TransportKind.allCases)
    func refreshAnswerLost(_ transport: TransportKind) async throws {
        try await withRig(transport) { (rig: Rig) async throws in
            let before = try await rig.vault.loadSession()
            rig.proxy.script(Self.token, [.dropAfterForwarding])

            let error = await #expect(throws: RiderError.self) { try await rig.sessions.refresh() }
            #expect(Self.kind(of: error) == "unreachable", "\(String(describing: error))")
            #expect(await rig.server.store.stats().refreshGrants == 1, "the server rotated the refresh token")
            #expect(try await rig.vault.loadSession() == before, "a transient error keeps the session")

            // The stored refresh token was spent by the lost exchange: the server refuses it.
            await #expect(throws: RiderError.sessionExpired) { try await rig.sessions.refresh() }
            #expect(try await rig.vault.loadSession() == nil)
            try await rig.expectCacheIntact()
        }
    }

    // MARK: - Writes and logout

    @Test("profile update: a 502 on the PATCH is retried because UpdateRider always sends If-Match, and succeeds once",
          arguments: TransportKind.allCases)
    func updateRetriesSafely(_ transport: TransportKind) async throws {
        try await withRig(transport) { (rig: Rig) async throws in
            let patch = RiderPatch(description: .set("Gravel on Sundays."))
            rig.proxy.script(Self.rider, [.answer(status: 502)])

            let updated = try await rig.profile.update(patch)

            #expect(updated.description == "Gravel on Sundays.")
            #expect(rig.proxy.attempts(Self.rider) == 2)
            #expect(rig.proxy.reachedServer(Self.rider) == 1, "applied exactly once")
        }
    }

    @Test("profile update: the answer to an applied PATCH is lost; the retry's If-Match fails with .conflict carrying the applied profile",
          arguments: TransportKind.allCases)
    func updateAnswerLost(_ transport: TransportKind) async throws {
        try await withRig(transport) { (rig: Rig) async throws in
            let patch = RiderPatch(description: .set("Gravel on Sundays."))
            rig.proxy.script(Self.rider, [.dropAfterForwarding])

            let error = await #expect(throws: RiderError.self) { try await rig.profile.update(patch) }

            guard let riderError = error, riderError.code == .conflict, case let current = riderError.current else {
                Issue.record("expected .conflict, got \(String(describing: error))")
                return
            }
            #expect(current?.description == "Gravel on Sundays.", "the change was applied once, and the caller sees it")
            #expect(rig.proxy.attempts(Self.rider) == 2)
            #expect(rig.proxy.reachedServer(Self.rider) == 2)
        }
    }

    @Test("logout with the revoke endpoint failing still signs out here and says the server was not told",
          arguments: TransportKind.allCases)
    func logoutOffline(_ transport: TransportKind) async throws {
        try await withRig(transport) { (rig: Rig) async throws in
            rig.proxy.always(Self.revoke, .dropBeforeForwarding)

            let outcome = try await rig.logout()

            #expect(outcome.wasSignedIn && !outcome.revokedOnServer)
            #expect(outcome.revocationFailure?.code == .serverUnreachable, "and says why")
            #expect(try await rig.vault.loadSession() == nil)
            #expect(try await rig.kit.cache.statistics().entries == 0, "logout empties the cache")
        }
    }

    /// A coarse name for the error, for table-driven expectations.
    static func kind(of error: RiderError?) -> String {
        switch error?.code {
        case .serverUnreachable?, .timedOut?: "unreachable"
        case .malformedResponse?: "malformed"
        case .server?: "server"
        case let other?: "\(other)"
        case nil: "none"
        }
    }
}
