import Foundation
import RiderApplication
import RiderKit
import Testing
import TestSupport

@Suite("Logging middleware")
struct LoggingMiddlewareTests {
    struct EchoTransport: HTTPTransport {
        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            HTTPResponse(status: 200, headers: ["Set-Cookie": "session=SECRET-COOKIE"], body: Data("SECRET-BODY".utf8))
        }
    }

    @Test("logs method, path and status but never headers, query or body")
    func redacts() async throws {
        let handler = CapturingLogLines()
        let logger = handler.logger()
        let transport = RequestPipeline(transport: EchoTransport(), middlewares: [LoggingMiddleware(logger: logger)])
        let url = try #require(URL(string: "https://api.example.com/users/search?q=SECRET-QUERY"))

        _ = try await transport.send(HTTPRequest(
            method: .post, url: url, headers: ["Authorization": "Bearer SECRET-TOKEN"],
            body: Data("password=SECRET-PASSWORD".utf8)))

        let lines = handler.all
        #expect(lines.contains { $0.contains("POST https://api.example.com/users/search") })
        #expect(lines.contains { $0.contains("200") })
        #expect(!lines.joined().contains("SECRET"))
    }
}
