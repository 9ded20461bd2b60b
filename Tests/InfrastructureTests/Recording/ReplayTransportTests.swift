import Foundation
import RiderDomain
import RiderInfrastructure
import TestSupport
import Testing

@Suite("ReplayTransport")
struct ReplayTransportTests {
    /// Records `GET /a` → "first", `GET /b` → "other", `GET /a` → "second".
    func recordTwoRoutes(_ fixture: RecordingFixture) async throws {
        fixture.server.stub(.get, "/a", inOrder: [.status(200, body: "first"), .status(201, body: "second")])
        fixture.server.stub(.get, "/b", with: .status(200, body: "other", headers: ["ETag": #""v1""#]))
        let recorder = fixture.recorder()
        for path in ["/a", "/b", "/a"] { _ = try await recorder.send(try fixture.request(.get, path)) }
    }

    func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test("each route's recordings are served in the order they were recorded, whatever other routes do in between")
    func orderPerRoute() async throws {
        let fixture = try RecordingFixture()
        defer { fixture.remove() }
        try await recordTwoRoutes(fixture)
        let replay = try ReplayTransport(folder: fixture.folder)

        let other = try await replay.send(try fixture.request(.get, "/b"))
        let first = try await replay.send(try fixture.request(.get, "/a?page=9"))
        let second = try await replay.send(try fixture.request(.get, "/a"))

        #expect(text(other) == "other")
        #expect(other.headers["ETag"] == #""v1""#)
        #expect((first.status, text(first)) == (200, "first"))
        #expect((second.status, text(second)) == (201, "second"))
    }

    @Test("a request with no recording fails naming its method and path only, never its query, headers or body")
    func unknownRequest() async throws {
        let fixture = try RecordingFixture()
        defer { fixture.remove() }
        try await recordTwoRoutes(fixture)
        let replay = try ReplayTransport(folder: fixture.folder)

        let error = await #expect(throws: RiderError.self) {
            try await replay.send(try fixture.request(.post, "/users/search?q=private-term", headers: [
                "Authorization": "Bearer tok-private", "Content-Type": "application/json",
            ], body: #"{"password":"pw-private"}"#))
        }

        #expect(error == .invalidConfiguration("no recording for POST /users/search in \(fixture.folder.path)"))
        let message = error?.localizedDescription ?? ""
        for private_ in ["private-term", "tok-private", "pw-private", "Bearer", "application/json"] {
            #expect(!message.contains(private_), "\(private_) in: \(message)")
        }
    }

    @Test("a route whose recordings were all served fails the same way, saying so")
    func exhaustedRoute() async throws {
        let fixture = try RecordingFixture()
        defer { fixture.remove() }
        try await recordTwoRoutes(fixture)
        let replay = try ReplayTransport(folder: fixture.folder)
        _ = try await replay.send(try fixture.request(.get, "/b"))

        let error = await #expect(throws: RiderError.self) { try await replay.send(try fixture.request(.get, "/b")) }

        #expect(error == .invalidConfiguration("no recording left for GET /b in \(fixture.folder.path): all 1 were "
            + "replayed (replay the commands in the order they were recorded)"))
    }

    @Test("tokens come back as their placeholders, whatever the replayed client sends")
    func placeholdersAnswer() async throws {
        let fixture = try RecordingFixture()
        defer { fixture.remove() }
        let secrets = Secrets()
        fixture.server.stub(.post, "/auth/token", with: .status(200, body: secrets.tokenResponse(
            access: secrets.access1, refresh: secrets.refresh1)))
        _ = try await fixture.recorder().send(try fixture.request(.post, "/auth/token", body: "password=\(secrets.password)"))
        let replay = try ReplayTransport(folder: fixture.folder)

        let response = try await replay.send(try fixture.request(.post, "/auth/token", body: "password=another"))

        let json = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        #expect(json["access_token"] as? String == "redacted-access-token-1")
        #expect(json["refresh_token"] as? String == "redacted-refresh-token-1")
        #expect(json["expires_in"] as? Int == 3600)
    }

    @Test("its clock tells the recorded time: when the next request was sent, then when each answer arrived, then the end")
    func recordedTime() async throws {
        let fixture = try RecordingFixture()
        defer { fixture.remove() }
        let start = fixture.clock.now
        fixture.stubTakingTime("/slow", seconds: 0.25)
        let recorder = fixture.recorder()
        _ = try await recorder.send(try fixture.request(.get, "/slow"))
        fixture.clock.advance(by: 60)
        _ = try await recorder.send(try fixture.request(.get, "/slow"))
        let replay = try ReplayTransport(folder: fixture.folder, acrossRuns: true)

        #expect(replay.clock.now == start)
        _ = try await replay.send(try fixture.request(.get, "/slow"))
        #expect(replay.clock.now == start.addingTimeInterval(0.25))
        _ = try await replay.send(try fixture.request(.get, "/slow"))
        #expect(replay.clock.now == start.addingTimeInterval(60.5))
        // A later run that sends nothing (`rider session show`) sees the end of the session.
        #expect(try ReplayTransport(folder: fixture.folder, acrossRuns: true).clock.now == start.addingTimeInterval(60.5))
    }

    @Test("across runs, each run continues where the last stopped, and one after the last recording starts over")
    func acrossRuns() async throws {
        let fixture = try RecordingFixture()
        defer { fixture.remove() }
        try await recordTwoRoutes(fixture)
        func run(_ path: String) async throws -> String {
            text(try await ReplayTransport(folder: fixture.folder, acrossRuns: true).send(try fixture.request(.get, path)))
        }

        #expect(try await run("/a") == "first")
        #expect(try await run("/b") == "other")
        #expect(try await run("/a") == "second")
        #expect(try await run("/a") == "first", "every recording was served: the next run starts over")
        let position = fixture.folder.appendingPathComponent(".replay-position.json")
        #expect(try permissions(of: position) == 0o600)
        // Without `acrossRuns` every run starts at the first recordings and keeps no position.
        #expect(text(try await ReplayTransport(folder: fixture.folder).send(try fixture.request(.get, "/a"))) == "first")
    }

    @Test("a recorded failure is thrown again")
    func recordedFailure() async throws {
        let fixture = try RecordingFixture()
        defer { fixture.remove() }
        let recorder = RecordingTransport(base: StubTransport.failing(with: RiderError.timedOut), folder: fixture.folder,
                                          clock: fixture.clock)
        await #expect(throws: RiderError.timedOut) { try await recorder.send(try fixture.request(.get, "/auth/me")) }

        await #expect(throws: RiderError.timedOut) {
            try await ReplayTransport(folder: fixture.folder).send(try fixture.request(.get, "/auth/me"))
        }
    }

    @Test("a folder that does not exist is a configuration error naming it")
    func missingFolder() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/rider-recording")
        #expect(throws: RiderError.invalidConfiguration("the recording folder /nonexistent/rider-recording does not exist")) {
            try ReplayTransport(folder: missing)
        }
    }
}
