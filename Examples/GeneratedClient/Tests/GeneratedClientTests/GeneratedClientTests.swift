import Foundation
import OpenAPIRuntime
import ProfileTool
import RiderAPI
import RiderKit
import RiderReferenceServer
import Testing

/// The generated client against the reference server on loopback, with RiderKit's session behind
/// every call (RiderKitOpenAPI).
@Suite("A client generated from docs/openapi.yaml, with RiderKit's session")
struct GeneratedClientTests {
    /// A reference server and a RiderKit signed in to it as the demo account (session in memory).
    private func withSignedInClient(_ body: (RunningReferenceServer, RiderKit, ProfileClient) async throws -> Void)
        async throws
    {
        let server = try await ReferenceServer.start(ReferenceServerConfiguration(seedUsers: 50,
                                                                                  accessTokenTTL: .seconds(3600)))
        do {
            let rider = try RiderKit.live(configuration: RiderKit.Configuration(
                api: try APIConfiguration(baseURL: server.baseURL, requestTimeout: 60), vault: .memory,
                cache: CacheConfiguration(storage: .memory), proxies: .none))
            _ = try await rider.login(Credentials(email: "demo@example.com", password: "rider-demo"))
            try await body(server, rider, ProfileClient(rider: rider))
            await rider.close()
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("reads the user and the profile, renames with If-Match, and a stale tag is refused with 412")
    func profileReadAndConditionalPatch() async throws {
        try await withSignedInClient { _, _, profiles in
            #expect(try await profiles.me().email == "demo@example.com")
            let before = try await profiles.profile()
            #expect(!before.entityTag.isEmpty)

            let renamed = try await profiles.rename(to: "Generated Demo", ifMatch: before.entityTag)
            #expect(renamed.rider.display_name == "Generated Demo")
            #expect(renamed.entityTag != before.entityTag)

            await #expect(throws: ProfileClient.Failure.changedMeanwhile(currentTag: renamed.entityTag)) {
                try await profiles.rename(to: "Lost Update", ifMatch: before.entityTag)
            }
            #expect(try await profiles.profile().rider.display_name == "Generated Demo")
        }
    }

    @Test("searches users through the generated client")
    func search() async throws {
        try await withSignedInClient { _, _, profiles in
            let page = try await profiles.search("demo")
            #expect(page.users.contains { $0.email == "demo@example.com" })
            #expect(page.total >= 1)
        }
    }

    @Test("a 401 mid-run is answered by one refresh, however many calls meet it at once")
    func unauthorizedMidRun() async throws {
        try await withSignedInClient { server, _, profiles in
            #expect(try await profiles.me().email == "demo@example.com")
            await server.store.expireAccessTokens()
            let before = await server.store.stats().refreshGrants

            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<20 { group.addTask { try await profiles.me().email } }
                for try await email in group { #expect(email == "demo@example.com") }
            }
            #expect(await server.store.stats().refreshGrants == before + 1)
        }
    }

    @Test("signed out, a call fails with RiderKit's error inside ClientError, and no token is in any error text")
    func signedOut() async throws {
        try await withSignedInClient { _, rider, profiles in
            let token = try #require(try await rider.sessions.currentSession()?.accessToken)
            _ = try await rider.logout()
            do {
                _ = try await profiles.me()
                Issue.record("a signed-out call succeeded")
            } catch let error as ClientError {
                let underlying = try #require(error.underlyingError as? RiderError)
                #expect(underlying.code == .notSignedIn)
                #expect(!String(describing: error).contains(token))
                #expect(!String(reflecting: error).contains(token))
            }
        }
    }
}
