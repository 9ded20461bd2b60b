import Foundation
import RiderApplication
import RiderDomain
import RiderInfrastructure
import RiderReferenceServer
import Testing
import TestSupport

/// The real client stack records a session against the reference server; with the server gone,
/// the same stack replays it from the files alone.
@Suite("Recording and replaying against the reference server")
struct RecordAndReplayAgainstReferenceServerTests {
    /// The use cases a session needs, over `transport`, signed out at first.
    struct Client {
        let login: Login
        let currentUser: CurrentUser
        let sessions: SessionEngine
        let searchUsers: SearchUsers

        init(api: APIConfiguration, transport: any HTTPTransport, clock: any Clock) {
            let cache = InMemoryUserCache()
            let sessions = SessionEngine(configuration: api, transport: transport, vault: InMemoryTokenVault(), clock: clock)
            let client = APIClient(configuration: api, transport: transport, sessions: sessions)
            login = Login(sessions: sessions)
            currentUser = CurrentUser(api: client, sessions: sessions, cache: cache, clock: clock)
            self.sessions = sessions
            searchUsers = SearchUsers(api: client, cache: cache, clock: clock)
        }
    }

    @Test("login, whoami, refresh and search replay with the server stopped; no issued token nor the password is in any file")
    func roundTrip() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let (api, session, me, renewed, page, issued) = try await withReferenceServer(.init(seedUsers: 50)) { server in
            let api = try APIConfiguration(baseURL: server.baseURL, requestTimeout: 60)
            let network = AsyncHTTPClientTransport(configuration: .init(timeout: 60, proxies: .none))
            let recorder = RecordingTransport(base: network, folder: folder.url)
            let recorded = Client(api: api, transport: recorder, clock: recorder.clock)
            let session = try await recorded.login(.referenceDemo)
            let me = try await recorded.currentUser().value
            let renewed = try await recorded.sessions.refresh()
            let page = try await recorded.searchUsers("jose", page: PageRequest(limit: 5))
            return (api, session, me, renewed, page, await server.store.issuedTokens())
        }

        let replay = try ReplayTransport(folder: folder.url)
        let replayed = Client(api: api, transport: replay, clock: replay.clock)
        // The password was never recorded, so any will do.
        let again = try await replayed.login(Credentials(email: "demo@example.com", password: "anything"))
        #expect(again.userID == session.userID)
        #expect(again.accessToken == "redacted-access-token-1")
        #expect(again.refreshToken == "redacted-refresh-token-1")
        let recordedExpiry = try #require(session.expiresAt)
        let replayedExpiry = try #require(again.expiresAt)
        #expect(abs(replayedExpiry.timeIntervalSince(recordedExpiry)) < 0.001,
                "the replayed session expires when the recorded one did")
        #expect(try await replayed.currentUser().value == me)
        let renewedAgain = try await replayed.sessions.refresh()
        #expect(renewedAgain.accessToken == "redacted-access-token-2")
        #expect(renewedAgain.userID == renewed.userID)
        #expect(try await replayed.searchUsers("jose", page: PageRequest(limit: 5)).users == page.users)

        #expect(issued.count >= 4)
        let files = FileManager.default.enumerator(at: folder.url, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { !$0.hasDirectoryPath } ?? []
        #expect(files.count >= 5)
        for file in files {
            let bytes = try Data(contentsOf: file)
            let leaks = (issued + [Credentials.referenceDemo.password]).filter { bytes.firstRange(of: Data($0.utf8)) != nil }
            #expect(leaks.isEmpty, "\(leaks.count) secrets in \(file.lastPathComponent)")
        }
    }
}
