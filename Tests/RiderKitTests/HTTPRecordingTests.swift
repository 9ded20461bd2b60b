import Foundation
import RiderInfrastructure
import RiderKit
import Testing

@Suite("RiderKit.live with Configuration.recording")
struct HTTPRecordingTests {
    /// Answers the token endpoint as a server would, without one.
    struct TokenEndpoint: HTTPTransport {
        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data("""
                {"access_token":"real-access-7Qm","token_type":"Bearer","expires_in":900,
                 "refresh_token":"real-refresh-2Lx","user_id":"u_000042"}
                """.utf8))
        }
    }

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("riderkit-recording-\(UUID().uuidString)")

    /// Nothing listens on the discard port, so any request that reached the network would fail.
    func configuration(_ recording: HTTPRecording) throws -> RiderKit.Configuration {
        let api = try APIConfiguration(baseURL: try #require(URL(string: "http://127.0.0.1:9")), requestTimeout: 5)
        return RiderKit.Configuration(api: api, vault: .memory, directories: XDGDirectories(environment: ["HOME": folder.path]),
                                      cache: CacheConfiguration(storage: .memory), recording: recording)
    }

    @Test("a replay signs in from the recording alone, with the placeholder tokens and the recorded expiry")
    func replayUsesNoNetwork() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let recordings = folder.appendingPathComponent("session")
        let recorder = RecordingTransport(base: TokenEndpoint(), folder: recordings)
        let recorded = try await RiderKit(api: try configuration(.record(into: recordings)).api, transport: recorder,
                                          vault: InMemoryTokenVault(), cache: InMemoryUserCache(), clock: recorder.clock)
            .login(Credentials(email: "ada@example.com", password: "pw-recorded"))

        let replayed = try await RiderKit.live(configuration: try configuration(.replay(from: recordings)))
            .login(Credentials(email: "ada@example.com", password: "pw-other"))

        #expect(replayed.userID == "u_000042")
        #expect(replayed.accessToken == "redacted-access-token-1")
        #expect(replayed.refreshToken == "redacted-refresh-token-1")
        let recordedExpiry = try #require(recorded.expiresAt)
        let replayedExpiry = try #require(replayed.expiresAt)
        #expect(abs(replayedExpiry.timeIntervalSince(recordedExpiry)) < 0.001, "the replay's clock tells the recorded time")
    }

    @Test("recording wraps the network: a server that cannot be reached is recorded as such")
    func recordingWrapsTheNetwork() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let rider = try RiderKit.live(configuration: try configuration(.record(into: folder)))

        let unreachable = await #expect(throws: RiderError.self) {
            try await rider.login(Credentials(email: "ada@example.com", password: "pw-recorded"))
        }
        #expect(unreachable?.code == .serverUnreachable, "\(String(describing: unreachable))")

        let file = folder.appendingPathComponent("auth/token/POST-0001.json")
        let recorded = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        #expect((recorded?["failure"] as? [String: Any])?["kind"] as? String == "server_unreachable")
    }

    @Test("a replay from a folder that does not exist is refused before anything runs")
    func missingReplayFolder() throws {
        #expect(throws: RiderError.invalidConfiguration("the recording folder \(folder.path) does not exist")) {
            try RiderKit.live(configuration: try configuration(.replay(from: folder)))
        }
    }
}
