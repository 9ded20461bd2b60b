import Foundation
import HTTPTypes
import OpenAPIRuntime
import RiderDomain
import RiderKit
@testable import RiderKitOpenAPI
import RiderReferenceServer
import Synchronization
import Testing
import TestSupport

/// The middleware in front of a generated client's next step, against the reference server: what
/// reaches the wire, and what a 401 costs. (Examples/GeneratedClient runs a real generated client.)
@Suite("RiderSessionMiddleware and RiderKitTransport")
struct RiderSessionMiddlewareTests {
    /// What the generated client's next step saw, in order.
    final class Seen: Sendable {
        let requests = Mutex<[HTTPTypes.HTTPRequest]>([])
        func append(_ request: HTTPTypes.HTTPRequest) { requests.withLock { $0.append(request) } }
        var all: [HTTPTypes.HTTPRequest] { requests.withLock { $0 } }
    }

    private func call(_ middleware: RiderSessionMiddleware, _ rider: RiderKit, _ request: HTTPTypes.HTTPRequest,
                      body: HTTPBody? = nil, seen: Seen) async throws -> (HTTPTypes.HTTPResponse, HTTPBody?) {
        let transport = RiderKitTransport(rider)
        return try await middleware.intercept(request, body: body, baseURL: rider.api.baseURL, operationID: "test") {
            request, body, baseURL in
            seen.append(request)
            return try await transport.send(request, body: body, baseURL: baseURL, operationID: "test")
        }
    }

    @Test("a request gets the bearer token and RiderKit's identity headers; an If-Match keeps its quotes")
    func authorizes() async throws {
        try await withReferenceServer { server in
            let rider = try server.riderKit()
            let session = try await rider.login(.referenceDemo)
            let seen = Seen()
            var request = HTTPTypes.HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/auth/me")
            request.headerFields[.ifNoneMatch] = "%22v1%22"
            let (response, body) = try await call(RiderSessionMiddleware(rider), rider, request, seen: seen)

            #expect(response.status == .ok)
            let text = try await String(collecting: try #require(body), upTo: 1 << 20)
            #expect(text.contains("demo@example.com"))
            let sent = try #require(seen.all.first)
            #expect(sent.headerFields[.authorization] == "Bearer \(session.accessToken)")
            #expect(sent.headerFields[.userAgent]?.contains("RiderKit/") == true)
            #expect(sent.headerFields[.ifNoneMatch] == "\"v1\"", "the runtime's percent-encoding undone")
        }
    }

    @Test("a 401 renews the session once and the request goes again with the new token")
    func renewsOnUnauthorized() async throws {
        try await withReferenceServer { server in
            let rider = try server.riderKit()
            let first = try await rider.login(.referenceDemo)
            await server.store.expireAccessTokens()
            let seen = Seen()
            let request = HTTPTypes.HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/auth/me")
            let (response, _) = try await call(RiderSessionMiddleware(rider), rider, request, seen: seen)

            #expect(response.status == .ok)
            #expect(await server.store.stats().refreshGrants == 1)
            let tokens = seen.all.map { $0.headerFields[.authorization] }
            #expect(tokens.first == "Bearer \(first.accessToken)")
            #expect(tokens.count == 2 && tokens[1] != tokens[0])
        }
    }

    @Test("a POST body is sent as given, and a path keeps its query and the base URL's own path")
    func conversion() async throws {
        var request = HTTPTypes.HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/users/search?q=jo%20g&limit=5")
        request.headerFields[.contentType] = "application/json"
        let converted = try await OpenAPIConversion.request(request, body: HTTPBody("{\"a\":1}"),
                                                           baseURL: try #require(URL(string: "https://api.example.com/v1/")))
        #expect(converted.url.absoluteString == "https://api.example.com/v1/users/search?q=jo%20g&limit=5")
        #expect(converted.method == .post)
        #expect(converted.body == Data("{\"a\":1}".utf8))
        let (back, body, baseURL) = try OpenAPIConversion.request(converted)
        #expect(back.path == "/v1/users/search?q=jo%20g&limit=5")
        #expect(baseURL.absoluteString == "https://api.example.com")
        #expect(try await String(collecting: try #require(body), upTo: 100) == "{\"a\":1}")
    }

    @Test("the token goes only to the session's API origin: another host, port or scheme gets the request without it",
          arguments: ["http://127.0.0.1:1", "http://api.example.com", "https://api.example.com",
                      "http://localhost:1/v1"])
    func otherOriginsGetNoToken(serverURL: String) async throws {
        try await withReferenceServer { server in
            let rider = try server.riderKit()
            _ = try await rider.login(.referenceDemo)
            let seen = Seen()
            let elsewhere = try #require(URL(string: serverURL))
            let request = HTTPTypes.HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/auth/me")
            let (response, _) = try await RiderSessionMiddleware(rider).intercept(
                request, body: nil, baseURL: elsewhere, operationID: "test"
            ) { request, _, baseURL in
                seen.append(request)
                #expect(baseURL == elsewhere)
                return (HTTPTypes.HTTPResponse(status: .unauthorized), nil)
            }

            #expect(response.status == .unauthorized, "handed back as it came, not renewed")
            #expect(seen.all.count == 1)
            #expect(seen.all.first?.headerFields[.authorization] == nil)
            #expect(await server.store.stats().refreshGrants == 0)
        }
    }
}
