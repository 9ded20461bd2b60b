import Foundation
import RiderDomain
import RiderInfrastructure
import RiderReferenceServer
import Testing
import TestSupport

/// The promises of the ``HTTPTransport`` port, kept by both transports RiderKit ships.
@Suite("HTTP transports against the reference server on loopback")
struct HTTPTransportTests {
    @Test("a request returns status, headers and body, even for a 4xx", arguments: TransportKind.allCases)
    func returnsErrorResponses(_ kind: TransportKind) async throws {
        try await withReferenceServer(ReferenceServerConfiguration(seedUsers: 10)) { server in
            let transport = kind.make(timeout: 60)

            let response = try await transport.send(HTTPRequest(
                method: .get, url: server.baseURL.appendingPathComponent("auth/me")))

            #expect(response.status == 401)
            #expect(response.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
            #expect(response.headers["Content-Type"]?.contains("application/problem+json") == true)
            #expect(!response.body.isEmpty)
        }
    }

    // The hang this guards against is endless; 45 s (not 5) so a loaded CI machine is not mistaken for it.
    @Test("a 401 with a Basic challenge comes back as a response with its body instead of hanging",
          .timeLimit(.minutes(2)),
          arguments: TransportKind.allCases)
    func basicChallengeDoesNotHang(_ kind: TransportKind) async throws {
        try await withReferenceServer(ReferenceServerConfiguration(seedUsers: 1)) { server in
            let transport = kind.make(timeout: 45)
            let wrongClient = Data("\(StandardOAuthClient.id):wrong".utf8).base64EncodedString()

            let response = try await transport.send(HTTPRequest(
                method: .post, url: server.baseURL.appendingPathComponent("oauth2/token"),
                headers: ["Content-Type": "application/x-www-form-urlencoded", "Authorization": "Basic \(wrongClient)"],
                body: Data("grant_type=password&username=demo%40example.com&password=rider-demo".utf8)))

            #expect(response.status == 401)
            #expect(response.headers["WWW-Authenticate"]?.hasPrefix("Basic") == true)
            #expect(String(decoding: response.body, as: UTF8.self).contains("invalid_client"))
        }
    }

    @Test("a form POST reaches the server byte for byte", arguments: TransportKind.allCases)
    func formPost(_ kind: TransportKind) async throws {
        try await withReferenceServer(ReferenceServerConfiguration(seedUsers: 0)) { server in
            let transport = kind.make(timeout: 60)
            let body = "grant_type=password&username=demo%40example.com&password=rider-demo"

            let response = try await transport.send(HTTPRequest(
                method: .post, url: server.baseURL.appendingPathComponent("auth/token"),
                headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(body.utf8)))

            #expect(response.status == 200)
            let json = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
            #expect(json?["token_type"] as? String == "Bearer")
        }
    }

    // A refused connection must not wait for the (deliberately long) request timeout; the time
    // limit catches that without asserting a speed.
    @Test("nothing listening on the port → serverUnreachable, not a timeout", .timeLimit(.minutes(1)),
          arguments: TransportKind.allCases)
    func connectionRefused(_ kind: TransportKind) async throws {
        let port = try LoopbackSocket.closedPort()
        let transport = kind.make(timeout: 300)
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/auth/me"))

        await #expect {
            _ = try await transport.send(HTTPRequest(method: .get, url: url))
        } throws: { error in
            // The transport's own error stays attached as the cause, for logs.
            guard let riderError = error as? RiderError, riderError.code == .serverUnreachable else { return false }
            return riderError.underlying != nil
        }
    }

    @Test("a server that never answers → timedOut after the request's timeout", arguments: TransportKind.allCases)
    func timeout(_ kind: TransportKind) async throws {
        let silent = try SilentServer()
        let transport = kind.make(timeout: 60)
        let url = try #require(URL(string: "http://127.0.0.1:\(silent.port)/auth/me"))

        await #expect(throws: RiderError.timedOut) {
            _ = try await transport.send(HTTPRequest(method: .get, url: url, timeout: 1))
        }
        withExtendedLifetime(silent) {}
    }

    @Test("a cancelled request ends with CancellationError", arguments: TransportKind.allCases)
    func cancellation(_ kind: TransportKind) async throws {
        let silent = try SilentServer()
        let transport = kind.make(timeout: 60)
        let url = try #require(URL(string: "http://127.0.0.1:\(silent.port)/auth/me"))
        let task = Task { try await transport.send(HTTPRequest(method: .get, url: url, timeout: 10)) }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()

        await #expect(throws: CancellationError.self) { _ = try await task.value }
        withExtendedLifetime(silent) {}
    }

    @Test("a response larger than the limit fails clearly instead of being used", arguments: TransportKind.allCases)
    func responseSizeLimit(_ kind: TransportKind) async throws {
        try await withReferenceServer(ReferenceServerConfiguration(seedUsers: 200)) { server in
            let transport = kind.make(maximumResponseBytes: 100)

            await #expect {
                _ = try await transport.send(HTTPRequest(method: .get, url: server.baseURL.appendingPathComponent("auth/me")))
            } throws: { error in
                guard let riderError = error as? RiderError, riderError.code == .malformedResponse, case let message = riderError.detail ?? "" else { return false }
                return message.contains("100 bytes")
            }
        }
    }

    @Test("a redirect comes back as it is instead of being followed with the token", arguments: TransportKind.allCases)
    func redirectsAreNotFollowed(_ kind: TransportKind) async throws {
        try await withReferenceServer(.init(seedUsers: 1, enableTestHooks: true)) { server in
            let url = try #require(URL(string: "\(server.baseURL.absoluteString)/_test/redirect?to=/_test/echo-headers"))

            let response = try await kind.make().send(HTTPRequest(method: .get, url: url,
                                                                  headers: ["Authorization": "Bearer not-for-strangers"]))

            #expect(response.status == 307)
            #expect(response.headers["Location"] == "/_test/echo-headers")
        }
    }

    @Test("every method and header reaches the server as sent", arguments: TransportKind.allCases)
    func methodsAndHeaders(_ kind: TransportKind) async throws {
        try await withReferenceServer(.init(seedUsers: 1, enableTestHooks: true)) { server in
            let transport = kind.make()
            let url = server.baseURL.appendingPathComponent("_test/echo-headers")

            let response = try await transport.send(HTTPRequest(
                method: .get, url: url, headers: ["X-Rider-Probe": "one", "Accept-Language": "de-CH, en;q=0.5"]))

            #expect(response.status == 200)
            let echoed = try JSONDecoder().decode(EchoedHeaders.self, from: response.body)
            #expect(echoed.headers.contains("x-rider-probe"))
            #expect(echoed.headers.contains("accept-language"))
        }
    }

    @Test("an unusable URL is a configuration error, not a network error", arguments: TransportKind.allCases)
    func unusableURL(_ kind: TransportKind) async throws {
        let url = try #require(URL(string: "ftp://127.0.0.1/auth/me"))

        await #expect {
            _ = try await kind.make().send(HTTPRequest(method: .get, url: url))
        } throws: { error in
            guard let riderError = error as? RiderError, riderError.code == .invalidConfiguration else { return false }
            return true
        }
    }
}
