import Foundation
import Logging
import RiderKit
import Synchronization
import Testing

@Suite("Logging middleware")
struct LoggingMiddlewareTests {
    /// Collects every message logged through it.
    final class CapturingHandler: LogHandler, Sendable {
        let lines = Mutex<[String]>([])
        var metadata: Logger.Metadata {
            get { [:] }
            set {}
        }
        var logLevel: Logger.Level {
            get { .trace }
            set {}
        }
        subscript(metadataKey _: String) -> Logger.Metadata.Value? {
            get { nil }
            set {}
        }
        func log(event: LogEvent) {
            lines.withLock { $0.append("\(event.level) \(event.message)") }
        }
    }

    struct EchoTransport: HTTPTransport {
        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            HTTPResponse(status: 200, headers: ["Set-Cookie": "session=SECRET-COOKIE"], body: Data("SECRET-BODY".utf8))
        }
    }

    @Test("logs method, path and status but never headers, query or body")
    func redacts() async throws {
        let handler = CapturingHandler()
        let logger = Logger(label: "test") { _ in handler }
        let transport = RequestPipeline(transport: EchoTransport(), middlewares: [LoggingMiddleware(logger: logger)])
        let url = try #require(URL(string: "https://api.example.com/users/search?q=SECRET-QUERY"))

        _ = try await transport.send(HTTPRequest(
            method: .post, url: url, headers: ["Authorization": "Bearer SECRET-TOKEN"],
            body: Data("password=SECRET-PASSWORD".utf8)))

        let lines = handler.lines.withLock { $0 }
        #expect(lines.contains { $0.contains("POST https://api.example.com/users/search") })
        #expect(lines.contains { $0.contains("200") })
        #expect(!lines.joined().contains("SECRET"))
    }
}
