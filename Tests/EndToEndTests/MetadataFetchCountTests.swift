import Foundation
import RiderReferenceServer
import Testing
import TestSupport

/// A provider that sends its metadata with `Cache-Control: no-store` lets no copy be kept between
/// commands, but README promises the metadata is kept "for the command": counted on the server,
/// one sign-in asks for the discovery document once, and each later command at most once.
@Suite("rider CLI: provider metadata asked once per command")
struct MetadataFetchCountTests {
    /// The authorization server's metadata, at either of its well-known paths.
    static let discoveryPaths = ["/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"]

    /// The device sign-in's server (one-second polling) with every metadata document `no-store`.
    static var noStore: ReferenceServerConfiguration {
        var configuration = DeviceSignInTests.configuration
        configuration.metadataNoStore = true
        return configuration
    }

    /// The metadata requests the server counted while `command` ran, by path.
    static func metadataRequests<Result>(on server: RunningReferenceServer,
                                         during command: () async throws -> Result) async rethrows
        -> (result: Result, requests: [String: Int]) {
        let before = await server.store.stats().metadataRequests
        let result = try await command()
        let after = await server.store.stats().metadataRequests
        return (result, after.reduce(into: [:]) { counted, entry in
            let added = entry.value - (before[entry.key] ?? 0)
            if added > 0 { counted[entry.key] = added }
        })
    }

    /// How many of `requests` were for the authorization server's metadata.
    static func discovery(_ requests: [String: Int]) -> Int {
        discoveryPaths.reduce(0) { $0 + (requests[$1] ?? 0) }
    }

    /// Runs `rider whoami` twice, the second after the access token expired (so it refreshes at
    /// the discovered token endpoint); each asks for each document at most once.
    static func expectWhoamiAsksAtMostOnce(_ server: RunningReferenceServer, _ sandbox: Sandbox,
                                           environment: [String: String],
                                           sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for round in 0..<2 {
            if round == 1 { await server.store.expireAccessTokens() }
            let (whoami, requests) = try await metadataRequests(on: server) {
                try await sandbox.rider(["whoami"], environment: environment)
            }
            #expect(whoami.status == 0 && whoami.stdout.contains(Demo.email), "\(whoami)", sourceLocation: sourceLocation)
            #expect(discovery(requests) <= 1, "whoami \(round) asked for the discovery document more than once: \(requests)",
                    sourceLocation: sourceLocation)
            #expect(requests.values.allSatisfy { $0 <= 1 }, "whoami \(round): \(requests)", sourceLocation: sourceLocation)
        }
        #expect(await server.store.stats().refreshGrants == 1, "the second whoami refreshed", sourceLocation: sourceLocation)
    }

    @Test("no-store metadata: rider login --web asks for the discovery document once, each whoami at most once")
    func browserSignIn() async throws {
        try await withSandboxedReferenceServer(Self.noStore) { server, sandbox in
            let (environment, opened) = try BrowserSignInTests.environment(server, sandbox)
            let ((run, answer), requests) = try await Self.metadataRequests(on: server) {
                try await DeviceSignInTests.signingIn(sandbox, ["login", "--web"], environment: environment,
                                                      opened: opened) { start in
                    try await BrowserSignInTests.answerByForm(try await BrowserSignInTests.providerPage(behind: start),
                                                              server: server)
                }
            }
            #expect(answer.contains("Signed in"))
            #expect(run.status == 0, "\(run)")
            #expect(Self.discovery(requests) == 1, "login --web: \(requests)")
            #expect(requests.values.allSatisfy { $0 <= 1 }, "login --web: \(requests)")
            try await Self.expectWhoamiAsksAtMostOnce(server, sandbox, environment: environment)
        }
    }

    @Test("no-store metadata: rider login --device asks for the discovery document once, each whoami at most once")
    func deviceSignIn() async throws {
        try await withSandboxedReferenceServer(Self.noStore) { server, sandbox in
            let (environment, opened) = try DeviceSignInTests.issuerOnly(server, browser: sandbox)
            let ((run, status), requests) = try await Self.metadataRequests(on: server) {
                try await DeviceSignInTests.signingIn(sandbox, ["login", "--device"], environment: environment,
                                                      opened: opened) { page in
                    try await DeviceSignInTests.answer(page, action: "approve", server: server)
                }
            }
            #expect(status == 200)
            #expect(run.status == 0, "\(run)")
            #expect(Self.discovery(requests) == 1, "login --device: \(requests)")
            #expect(requests.values.allSatisfy { $0 <= 1 }, "login --device: \(requests)")
            try await Self.expectWhoamiAsksAtMostOnce(server, sandbox, environment: environment)
        }
    }
}
