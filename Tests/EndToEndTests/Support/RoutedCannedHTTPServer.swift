import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// A loopback HTTP/1.1 server with one canned JSON answer per route, for feeding `rider` what the
/// reference server refuses to store (a display name full of control characters) through a
/// whole sign-in and a search. Routes match the start of the request line (`GET /users/search`);
/// anything else gets a 404 problem. One thread (``LoopbackListener``).
final class RoutedCannedHTTPServer: Sendable {
    /// One answer: the status line's code and a JSON body.
    struct Answer: Sendable {
        let status: Int
        let json: String
        var contentType = "application/json"
    }

    private let listener: LoopbackListener

    /// - Parameter routes: request-line prefixes (`"POST /auth/token"`) and their answers; the
    ///   first match wins.
    init(_ routes: KeyValuePairs<String, Answer>) throws {
        let table = routes.map { ($0.key, $0.value) }
        listener = try LoopbackListener { client in Self.answer(client, from: table) }
    }

    var port: UInt16 { listener.port }
    var baseURL: String { "http://127.0.0.1:\(port)" }

    func stop() { listener.stop() }

    /// Reads the whole request so the client never sees a reset, then answers for its route.
    private static func answer(_ client: Int32, from routes: [(String, Answer)]) {
        defer { close(client) }
        LoopbackSocket.setReceiveTimeout(client, seconds: 5)
        guard let requestLine = LoopbackSocket.readRequest(client)?.requestLine else { return }
        let answer = routes.first { requestLine.hasPrefix($0.0) }?.1
            ?? Answer(status: 404, json: #"{"type":"about:blank","title":"Not Found","status":404}"#,
                      contentType: "application/problem+json")
        let body = Array(answer.json.utf8)
        let head = "HTTP/1.1 \(answer.status) \(answer.status < 400 ? "OK" : "Error")\r\n"
            + "Content-Type: \(answer.contentType)\r\nCache-Control: no-store\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        LoopbackSocket.write(client, Array(head.utf8) + body)
        shutdown(client, Int32(SHUT_WR))
    }
}
