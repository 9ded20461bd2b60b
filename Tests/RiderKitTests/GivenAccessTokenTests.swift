import Foundation
import RiderApplication
import RiderInfrastructure
import RiderKit
import RiderReferenceServer
import Testing
import TestSupport

/// An access token a program was given (#33 item 4), in the composition root: a `RiderKit` that
/// runs on it alone and keeps nothing, and a sign-in that keeps it as the session.
@Suite("Given access tokens")
struct GivenAccessTokenTests {
    @Test("a given token is trimmed of the whitespace around it; empty, spaced or non-ASCII ones are refused without being quoted")
    func parsing() throws {
        #expect(try GivenAccessToken("  tok.en-1_~+/=\n").value == "tok.en-1_~+/=")
        for bad in ["", " \n", "two words", "line\nbreak", "café", String(repeating: "a", count: 16 * 1024 + 1)] {
            let error = #expect(throws: RiderError.self) { try GivenAccessToken(bad, source: "RIDER_TOKEN") }
            #expect(error?.code == .invalidInput)
            #expect(error?.fieldProblems.first?.field == "RIDER_TOKEN")
            if bad.count > 3 { #expect(!(error?.message ?? "").contains(bad) && !"\(String(describing: error))".contains(bad)) }
        }
        let token = try GivenAccessToken("secret-canary")
        #expect(!"\(token)".contains("secret-canary") && !String(reflecting: token).contains("secret-canary"))
    }

    /// A configuration whose files would all go under `folder`, with the encrypted file as its
    /// vault: anything written shows up there.
    static func configuration(_ server: RunningReferenceServer, folder: URL) throws -> RiderKit.Configuration {
        RiderKit.Configuration(
            api: try APIConfiguration(baseURL: server.baseURL, requestTimeout: 60), vault: .encryptedFile(nil),
            directories: XDGDirectories(environment: ["HOME": folder.path]),
            vaultPassphrase: .fixed("given token test passphrase"), proxies: .none)
    }

    static func files(in folder: URL) -> [String] {
        (FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? [])
            .filter { !$0.hasDirectoryPath }.map(\.path)
    }

    @Test("Configuration.accessToken: the API takes it, nothing is written, it is never refreshed, and a refusal says so")
    func runsOnTheTokenAlone() async throws {
        try await withReferenceServer { server in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("given-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let direct = try await server.riderKit().login(.referenceDemo)
            var configuration = try Self.configuration(server, folder: folder)
            configuration.accessToken = try GivenAccessToken(direct.accessToken)
            let rider = try RiderKit.live(configuration: configuration)

            #expect(try await rider.currentUser().value.email == Credentials.referenceDemo.email)
            #expect(try await rider.sessions.currentSession()?.refreshToken == nil)
            await rider.close()
            #expect(Self.files(in: folder).isEmpty, "\(Self.files(in: folder))")

            await server.store.expireAccessTokens()
            await #expect(throws: RiderError.accessTokenRefused) { try await rider.currentUser() }
            #expect(await server.store.stats().refreshGrants == 0)
            #expect(Self.files(in: folder).isEmpty)
        }
    }

    @Test("signIn(withAccessToken:) keeps it as the account's session, without a refresh token; a refused one keeps nothing")
    func keptAsTheSession() async throws {
        try await withReferenceServer { server in
            let direct = try await server.riderKit().login(.referenceDemo)
            let rider = try server.riderKit()

            await #expect(throws: RiderError.givenTokenRefused) {
                try await rider.signIn(withAccessToken: GivenAccessToken("not-a-token-of-this-server"))
            }
            #expect(try await rider.sessions.currentSession() == nil)

            let session = try await rider.signIn(withAccessToken: GivenAccessToken(direct.accessToken))
            #expect(session.userID == direct.userID && session.refreshToken == nil)
            #expect(try await rider.sessions.currentSession() == session)
            #expect(try await rider.currentUser().value.id == direct.userID)
        }
    }
}
