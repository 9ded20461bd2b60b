import Foundation
import RiderDomain
import RiderInfrastructure
import RiderReferenceServer
import Testing

@Suite("URLSession transport against the reference server on loopback")
struct URLSessionTransportTests {
    @Test("a request returns status, headers and body, even for a 4xx")
    func returnsErrorResponses() async throws {
        let server = try await ReferenceServer.start(ReferenceServerConfiguration(seedUsers: 10))
        defer { Task { await server.stop() } }
        let transport = URLSessionTransport(configuration: .init(timeout: 60))

        let response = try await transport.send(HTTPRequest(
            method: .get, url: server.baseURL.appendingPathComponent("auth/me")))

        #expect(response.status == 401)
        #expect(response.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
        #expect(response.headers["Content-Type"]?.contains("application/problem+json") == true)
        #expect(!response.body.isEmpty)
    }

    // The hang this guards against is endless; 45 s (not 5) so a loaded CI machine is not mistaken for it.
    @Test("a 401 with a Basic challenge comes back as a response with its body instead of hanging",
          .timeLimit(.minutes(2)))
    func basicChallengeDoesNotHang() async throws {
        let server = try await ReferenceServer.start(ReferenceServerConfiguration(seedUsers: 1))
        defer { Task { await server.stop() } }
        let transport = URLSessionTransport(configuration: .init(timeout: 45))
        let wrongClient = Data("\(StandardOAuthClient.id):wrong".utf8).base64EncodedString()

        let response = try await transport.send(HTTPRequest(
            method: .post, url: server.baseURL.appendingPathComponent("oauth2/token"),
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Authorization": "Basic \(wrongClient)"],
            body: Data("grant_type=password&username=demo%40example.com&password=rider-demo".utf8)))

        #expect(response.status == 401)
        #expect(response.headers["WWW-Authenticate"]?.hasPrefix("Basic") == true)
        #expect(String(decoding: response.body, as: UTF8.self).contains("invalid_client"))
    }

    @Test("a form POST reaches the server byte for byte")
    func formPost() async throws {
        let server = try await ReferenceServer.start(ReferenceServerConfiguration(seedUsers: 0))
        defer { Task { await server.stop() } }
        let transport = URLSessionTransport(configuration: .init(timeout: 60))
        let body = "grant_type=password&username=demo%40example.com&password=rider-demo"

        let response = try await transport.send(HTTPRequest(
            method: .post, url: server.baseURL.appendingPathComponent("auth/token"),
            headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(body.utf8)))

        #expect(response.status == 200)
        let json = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        #expect(json?["token_type"] as? String == "Bearer")
    }

    // A refused connection must not wait for the (deliberately long) request timeout; the time
    // limit catches that without asserting a speed.
    @Test("nothing listening on the port → serverUnreachable, not a timeout", .timeLimit(.minutes(1)))
    func connectionRefused() async throws {
        let port = try closedLoopbackPort()
        let transport = URLSessionTransport(configuration: .init(timeout: 300))
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/auth/me"))

        await #expect {
            _ = try await transport.send(HTTPRequest(method: .get, url: url))
        } throws: { error in
            guard case RiderError.serverUnreachable = error else { return false }
            return true
        }
    }

    @Test("a server that never answers → timedOut after the request's timeout")
    func timeout() async throws {
        let silent = try SilentServer()
        let transport = URLSessionTransport(configuration: .init(timeout: 60))
        let url = try #require(URL(string: "http://127.0.0.1:\(silent.port)/auth/me"))

        await #expect(throws: RiderError.timedOut) {
            _ = try await transport.send(HTTPRequest(method: .get, url: url, timeout: 1))
        }
        withExtendedLifetime(silent) {}
    }

    @Test("a cancelled request ends with CancellationError")
    func cancellation() async throws {
        let silent = try SilentServer()
        let transport = URLSessionTransport(configuration: .init(timeout: 60))
        let url = try #require(URL(string: "http://127.0.0.1:\(silent.port)/auth/me"))
        let task = Task { try await transport.send(HTTPRequest(method: .get, url: url, timeout: 10)) }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()

        await #expect(throws: CancellationError.self) { _ = try await task.value }
        withExtendedLifetime(silent) {}
    }

    @Test("a response larger than the limit fails clearly instead of being used")
    func responseSizeLimit() async throws {
        let server = try await ReferenceServer.start(ReferenceServerConfiguration(seedUsers: 200))
        defer { Task { await server.stop() } }
        let transport = URLSessionTransport(configuration: .init(maximumResponseBytes: 100))

        await #expect {
            _ = try await transport.send(HTTPRequest(method: .get, url: server.baseURL.appendingPathComponent("auth/me")))
        } throws: { error in
            guard case RiderError.malformedResponse(let message) = error else { return false }
            return message.contains("100 bytes")
        }
    }
}
