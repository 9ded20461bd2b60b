import Foundation
import InMemoryTracing
import RiderApplication
import RiderKit
import RiderReferenceServer
import Synchronization
import Testing
import TestSupport
import Tracing

/// RiderKit's spans through swift-distributed-tracing, against the reference server, caught with
/// the library's in-memory tracer bound to the test's task (`withTracer`).
@Suite("Tracing: spans for requests, refreshes, vault and cache; traceparent on the wire")
struct TracingTests {
    /// Sends through AsyncHTTPClient and keeps every request it sent.
    final class Capturing: HTTPTransport {
        let base = AsyncHTTPClientTransport(configuration: .init(timeout: 60, proxies: .none))
        let sent = Mutex<[HTTPRequest]>([])
        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            sent.withLock { $0.append(request) }
            return try await base.send(request)
        }
    }

    private func text(of attributes: SpanAttributes) -> [String] {
        var values: [String] = []
        attributes.forEach { key, value in values.append("\(key)=\(value)") }
        return values
    }

    @Test("a request that meets an expired token: its span, the refresh inside it, vault and cache spans, no secret anywhere")
    func spansOfARequest() async throws {
        try await withReferenceServer { server in
            let tracer = InMemoryTracer()
            let capturing = Capturing()
            let rider = try server.riderKit(transport: capturing)
            let (session, refreshed) = try await withTracer(tracer) {
                let session = try await rider.login(.referenceDemo)
                await server.store.expireAccessTokens()
                _ = try await rider.getUser(UserID("u_000001"), policy: .networkOnly)
                _ = try await rider.searchUsers("jos", page: PageRequest(limit: 5))
                let refreshed = try #require(try await rider.sessions.currentSession())
                return (session, refreshed)
            }
            let spans = tracer.finishedSpans
            let names = spans.map(\.operationName)

            let get = try #require(spans.first { $0.operationName == "HTTP GET /users/{id}" }, "\(names)")
            #expect(get.kind == .client)
            #expect(get.attributes.get("http.request.method") == .string("GET"))
            #expect(get.attributes.get("url.template") == .string("/users/{id}"))
            #expect(get.attributes.get("http.response.status_code") == .int64(200))
            #expect(get.attributes.get("rider.attempts") == .int64(2), "sent, 401, sent again")
            let refresh = try #require(spans.first { $0.operationName == "rider.session.refresh" }, "\(names)")
            #expect(refresh.parentSpanID == get.spanID, "the refresh is a child of the request that met the 401")
            #expect(refresh.attributes.get("rider.refresh.waiters") == .int64(0))
            let tokenRequests = spans.filter { $0.operationName == "HTTP POST /auth/token" }
            #expect(tokenRequests.contains { $0.parentSpanID == refresh.spanID }, "the refresh's own request is its child")
            #expect(names.contains("rider.vault.save") && names.contains("rider.vault.load"), "\(names)")
            #expect(names.contains("rider.cache.store"), "\(names)")
            let search = try #require(spans.first { $0.operationName.hasPrefix("HTTP GET /users/search") }, "\(names)")
            #expect(search.attributes.get("url.template") == .string("/users/search"), "no query in the template")

            let everything = spans.flatMap { [$0.operationName] + text(of: $0.attributes) }.joined(separator: "\n")
            for secret in [session.accessToken, session.refreshToken ?? "-", refreshed.accessToken,
                           refreshed.refreshToken ?? "-", Credentials.referenceDemo.password, "jos"] {
                #expect(!everything.contains(secret), "a span holds a secret or the search text")
            }

            // Every attempt carried the trace context of its request's span.
            let carried = capturing.sent.withLock { $0 }.filter { $0.headers[InMemoryTracer.traceIDKey] != nil }
            #expect(carried.count == capturing.sent.withLock { $0.count })
        }
    }

    @Test("with no tracer bound, nothing is recorded and no trace header goes out")
    func noTracer() async throws {
        try await withReferenceServer { server in
            let capturing = Capturing()
            let rider = try server.riderKit(transport: capturing)
            _ = try await rider.login(.referenceDemo)
            _ = try await rider.getUser(UserID("u_000001"), policy: .networkOnly)
            for request in capturing.sent.withLock({ $0 }) {
                #expect(request.headers["traceparent"] == nil && request.headers[InMemoryTracer.traceIDKey] == nil)
            }
        }
    }

    @Test("route templates keep words and replace identifiers")
    func templates() throws {
        let cases = [
            ("https://a.example/users/u_000042", "/users/{id}"),
            ("https://a.example/users/search?q=ana", "/users/search"),
            ("https://a.example/sports/42", "/sports/{id}"),
            ("https://a.example/avatars/2F1B7C4E-9D0A-4B7F-8C8E-3A1D2E4F5A6B", "/avatars/{id}"),
            ("https://a.example/riders/me", "/riders/me"),
            ("https://a.example/", "/"),
        ]
        for (url, template) in cases {
            #expect(TracingMiddleware.routeTemplate(of: try #require(URL(string: url))) == template, "\(url)")
        }
    }
}
