import Foundation
import RiderDomain
import RiderInfrastructure
import TestSupport
import Testing

@Suite("RecordingTransport")
struct RecordingTransportTests {
    @Test("each exchange is a JSON file under its request's path, numbered per method in the order sent")
    func layout() async throws {
        let fixture = try RecordingFixture()
        defer { fixture.remove() }
        fixture.server.stub(.get, "/auth/me", inOrder: [.status(200, body: #"{"n":1}"#), .status(200, body: #"{"n":2}"#)])
        fixture.server.stub(.get, "/users/search", with: .status(200, body: #"{"users": [], "total": 0}"#,
                                                                  headers: ["Content-Type": "application/json"]))
        fixture.server.stub(.post, "/auth/me", with: .status(405))
        let recorder = fixture.recorder()

        _ = try await recorder.send(try fixture.request(.get, "/auth/me"))
        let search = try await recorder.send(try fixture.request(.get, "/users/search?q=jos%C3%A9&page=1",
                                                                 headers: ["Accept-Language": "pt"]))
        _ = try await recorder.send(try fixture.request(.get, "/auth/me"))
        _ = try await recorder.send(try fixture.request(.post, "/auth/me"))

        #expect(fixture.files() == [".lock", "auth/me/GET-0001.json", "auth/me/GET-0002.json", "auth/me/POST-0001.json",
                                    "users/search/GET-0001.json"])
        let recorded = try fixture.json("users/search/GET-0001.json")
        let request = try #require(recorded["request"] as? [String: Any])
        let response = try #require(recorded["response"] as? [String: Any])
        #expect(request["method"] as? String == "GET")
        #expect(request["path"] as? String == "/users/search")
        #expect(request["query"] as? String == "q=jos%C3%A9&page=1")
        #expect(request["headers"] as? [String] == ["Accept-Language: pt"])
        #expect(response["status"] as? Int == 200)
        #expect(response["headers"] as? [String] == ["Content-Type: application/json"])
        // The body is kept byte for byte, so a replay answers exactly what the server sent.
        #expect(response["body"] as? String == String(decoding: search.body, as: UTF8.self))
        #expect(try fixture.json("auth/me/GET-0002.json")["response"].flatMap { ($0 as? [String: Any])?["body"] }
            as? String == #"{"n":2}"#)
    }

    @Test("its clock tells the time the last response arrived, as recorded, until the next one does")
    func recordingClock() async throws {
        let fixture = try RecordingFixture()
        defer { fixture.remove() }
        let start = fixture.clock.now
        fixture.stubTakingTime("/slow", seconds: 0.25)
        let recorder = fixture.recorder()
        #expect(recorder.clock.now == start, "before any response: the time")

        _ = try await recorder.send(try fixture.request(.get, "/slow"))
        fixture.clock.advance(by: 10)

        #expect(recorder.clock.now == start.addingTimeInterval(0.25))
        let recorded = try #require(try fixture.json("slow/GET-0001.json")["received_at"] as? Double)
        #expect(recorded == start.addingTimeInterval(0.25).timeIntervalSince1970)
    }

    @Test("a body that is not UTF-8 text is kept as base64")
    func binaryBody() async throws {
        let fixture = try RecordingFixture()
        defer { fixture.remove() }
        let bytes = Data([0xFF, 0x00, 0x80, 0x7F])
        fixture.server.stub(.get, "/avatar") { _ in .response(HTTPResponse(status: 200, body: bytes)) }

        _ = try await fixture.recorder().send(try fixture.request(.get, "/avatar"))

        let response = try #require(try fixture.json("avatar/GET-0001.json")["response"] as? [String: Any])
        #expect(response["body_base64"] as? String == bytes.base64EncodedString())
        #expect(response["body"] == nil)
    }

    @Test("no token, password, client secret or cookie of any request or response reaches any file")
    func noSecretIsWritten() async throws {
        let fixture = try RecordingFixture()
        defer { fixture.remove() }
        let secrets = Secrets()
        fixture.server.stub(.post, "/auth/token", inOrder: [
            .status(200, body: secrets.tokenResponse(access: secrets.access1, refresh: secrets.refresh1),
                    headers: ["Content-Type": "application/json", "Set-Cookie": "sid=\(secrets.cookie); HttpOnly"]),
            .status(200, body: secrets.tokenResponse(access: secrets.access2, refresh: secrets.refresh2),
                    headers: ["Content-Type": "application/json"]),
        ])
        fixture.server.stub(.get, "/auth/me", with: .status(200, body: #"{"id":"u_1"}"#))
        fixture.server.stub(.post, "/auth/revoke", with: .status(200))
        fixture.server.stub(.post, "/auth/register", with: .status(201, body: #"{"id":"u_2"}"#))
        let recorder = fixture.recorder()
        let form: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded"]

        _ = try await recorder.send(try fixture.request(.post, "/auth/token", headers: [
            "Content-Type": "application/x-www-form-urlencoded", "Authorization": "Basic \(secrets.basic)",
        ], body: "grant_type=password&username=ada%40example.com&password=\(secrets.password)"
            + "&client_id=rider-cli&client_secret=\(secrets.clientSecret)"))
        _ = try await recorder.send(try fixture.request(.get, "/auth/me?access_token=\(secrets.access1)", headers: [
            "Authorization": "Bearer \(secrets.access1)", "Cookie": "sid=\(secrets.cookie)",
            "Proxy-Authorization": "Basic \(secrets.basic)",
        ]))
        _ = try await recorder.send(try fixture.request(.post, "/auth/token", headers: form,
                                                        body: "grant_type=refresh_token&refresh_token=\(secrets.refresh1)"))
        _ = try await recorder.send(try fixture.request(.post, "/auth/revoke", headers: form,
                                                        body: "token=\(secrets.refresh2)&token_type_hint=refresh_token"))
        _ = try await recorder.send(try fixture.request(.post, "/auth/register", headers: ["Content-Type": "application/json"],
                                                        body: #"{"email":"g@example.com","password":"\#(secrets.password)"}"#))

        let everything = fixture.everything().filter { !fixture.isFolder($0) }
        #expect(everything.count == 7, "five exchanges, the placeholders, the lock")
        for file in everything {
            let bytes = try Data(contentsOf: file)
            for secret in secrets.all {
                // Counted rather than printed, so a failure does not show the secret either.
                #expect(bytes.firstRange(of: Data(secret.utf8)) == nil, "a secret reached \(file.lastPathComponent)")
            }
        }
    }

    @Test("each distinct token gets a numbered placeholder, the same wherever it comes back, also in a later process")
    func stablePlaceholders() async throws {
        let fixture = try RecordingFixture()
        defer { fixture.remove() }
        let secrets = Secrets()
        fixture.server.stub(.post, "/auth/token", inOrder: [
            .status(200, body: secrets.tokenResponse(access: secrets.access1, refresh: secrets.refresh1)),
            .status(200, body: secrets.tokenResponse(access: secrets.access2, refresh: secrets.refresh2)),
        ])
        fixture.server.stub(.get, "/auth/me", with: .status(200))
        fixture.server.stub(.post, "/auth/revoke", with: .status(200))
        let form: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded"]

        // `rider login`, then `rider whoami`, `rider session refresh` and `rider logout`, each its own process.
        _ = try await fixture.recorder().send(try fixture.request(.post, "/auth/token", headers: form,
                                                                  body: "grant_type=password&password=\(secrets.password)"))
        _ = try await fixture.recorder().send(try fixture.request(.get, "/auth/me",
                                                                  headers: ["Authorization": "Bearer \(secrets.access1)"]))
        _ = try await fixture.recorder().send(try fixture.request(.post, "/auth/token", headers: form,
                                                                  body: "grant_type=refresh_token&refresh_token=\(secrets.refresh1)"))
        _ = try await fixture.recorder().send(try fixture.request(.post, "/auth/revoke", headers: form,
                                                                  body: "token=\(secrets.refresh2)"))

        func body(_ file: String, _ part: String) throws -> String? {
            (try fixture.json(file)[part] as? [String: Any])?["body"] as? String
        }
        #expect(try body("auth/token/POST-0001.json", "request") == "grant_type=password&password=redacted-password")
        #expect(try body("auth/token/POST-0001.json", "response") == #"{"access_token":"redacted-access-token-1","#
            + #""expires_in":3600,"refresh_token":"redacted-refresh-token-1","token_type":"Bearer"}"#)
        let whoami = try #require(try fixture.json("auth/me/GET-0001.json")["request"] as? [String: Any])
        #expect(whoami["headers"] as? [String] == ["Authorization: Bearer redacted-access-token-1"])
        #expect(try body("auth/token/POST-0002.json", "request")
            == "grant_type=refresh_token&refresh_token=redacted-refresh-token-1")
        #expect(try body("auth/token/POST-0002.json", "response") == #"{"access_token":"redacted-access-token-2","#
            + #""expires_in":3600,"refresh_token":"redacted-refresh-token-2","token_type":"Bearer"}"#)
        #expect(try body("auth/revoke/POST-0001.json", "request") == "token=redacted-refresh-token-2")
    }

    @Test("a body whose secrets were replaced keeps a Content-Length that fits it")
    func contentLength() async throws {
        let fixture = try RecordingFixture()
        defer { fixture.remove() }
        let body = Secrets().tokenResponse(access: "a-much-longer-token-than-its-placeholder-0123456789", refresh: "r")
        fixture.server.stub(.post, "/auth/token", with: .status(200, body: body, headers: [
            "Content-Length": "\(body.utf8.count)", "Content-Type": "application/json",
        ]))

        _ = try await fixture.recorder().send(try fixture.request(.post, "/auth/token"))

        let response = try #require(try fixture.json("auth/token/POST-0001.json")["response"] as? [String: Any])
        let recorded = try #require(response["body"] as? String)
        #expect(response["headers"] as? [String] == ["Content-Length: \(recorded.utf8.count)", "Content-Type: application/json"])
    }

    @Test("files are 0600 and folders 0700, the recording's own folder included")
    func privateModes() async throws {
        let fixture = try RecordingFixture()
        defer { fixture.remove() }
        fixture.server.stub(.post, "/auth/token", with: .status(200, body: Secrets().tokenResponse(access: "a", refresh: "r")))

        _ = try await fixture.recorder().send(try fixture.request(.post, "/auth/token"))

        #expect(try permissions(of: fixture.folder) == 0o700)
        let items = fixture.everything()
        #expect(items.count == 5, "auth/, auth/token/, the exchange, the placeholders, the lock: \(items)")
        for item in items {
            #expect(try permissions(of: item) == (fixture.isFolder(item) ? 0o700 : 0o600),
                    "\(item.path)")
        }
    }

    @Test("a request that got no response is recorded, and the failure is thrown as it came")
    func failureIsRecorded() async throws {
        let fixture = try RecordingFixture()
        defer { fixture.remove() }
        let server = StubTransport.failing(with: RiderError.serverUnreachable(reason: "connection refused"))
        let recorder = RecordingTransport(base: server, folder: fixture.folder, clock: fixture.clock)

        await #expect(throws: RiderError.serverUnreachable(reason: "connection refused")) {
            try await recorder.send(try fixture.request(.get, "/auth/me"))
        }

        let failure = try #require(try fixture.json("auth/me/GET-0001.json")["failure"] as? [String: Any])
        #expect(failure["kind"] as? String == "server_unreachable")
        #expect(failure["reason"] as? String == "connection refused")
    }

    @Test("a cancelled request is not recorded: nothing came back to replay")
    func cancellationIsNotRecorded() async throws {
        let fixture = try RecordingFixture()
        defer { fixture.remove() }
        let recorder = RecordingTransport(base: StubTransport.failing(with: CancellationError()), folder: fixture.folder,
                                          clock: fixture.clock)

        await #expect(throws: CancellationError.self) { try await recorder.send(try fixture.request(.get, "/auth/me")) }

        #expect(fixture.files().isEmpty)
    }
}

/// Distinctive secrets, none a substring of another.
struct Secrets {
    let access1 = "acc-9f2c41d0e8"
    let access2 = "acc-77b1e0aa3c"
    let refresh1 = "ref-1d9e5c20fb"
    let refresh2 = "ref-c3a8f61e27"
    let password = "pw-Zq81xK"
    let clientSecret = "cs-5Tn0vQ"
    let cookie = "ck-8Hs2pL"
    /// `Basic` credentials of the client (`rider-cli:cs-5Tn0vQ`).
    var basic: String { Data("rider-cli:\(clientSecret)".utf8).base64EncodedString() }

    var all: [String] { [access1, access2, refresh1, refresh2, password, clientSecret, cookie, basic] }

    func tokenResponse(access: String, refresh: String) -> String {
        #"{"access_token":"\#(access)","token_type":"Bearer","expires_in":3600,"refresh_token":"\#(refresh)"}"#
    }
}
