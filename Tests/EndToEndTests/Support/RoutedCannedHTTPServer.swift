import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A loopback HTTP/1.1 server with one canned JSON answer per route, for feeding `rider` what the
/// reference server refuses to store (a display name full of control characters) through a
/// whole sign-in and a search. Routes match the start of the request line (`GET /users/search`);
/// anything else gets a 404 problem. Plain POSIX sockets, one thread.
final class RoutedCannedHTTPServer: Sendable {
    /// One answer: the status line's code and a JSON body.
    struct Answer: Sendable {
        let status: Int
        let json: String
        var contentType = "application/json"
    }

    let port: UInt16
    private let descriptor: Int32

    /// - Parameter routes: request-line prefixes (`"POST /auth/token"`) and their answers; the
    ///   first match wins.
    init(_ routes: KeyValuePairs<String, Answer>) throws {
        (descriptor, port) = try LoopbackSocket.listen()
        let listener = descriptor
        let table = routes.map { ($0.key, $0.value) }
        Thread.detachNewThread {
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 {
                    if errno == EINTR { continue }
                    break  // stop() shut the listener down
                }
                Self.answer(client, from: table)
            }
            close(listener)
        }
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Wakes the accepting thread, which then closes the socket.
    func stop() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    private static func answer(_ client: Int32, from routes: [(String, Answer)]) {
        defer { close(client) }
        guard let requestLine = readRequestLine(client) else { return }
        let answer = routes.first { requestLine.hasPrefix($0.0) }?.1
            ?? Answer(status: 404, json: #"{"type":"about:blank","title":"Not Found","status":404}"#,
                      contentType: "application/problem+json")
        let body = Array(answer.json.utf8)
        let head = "HTTP/1.1 \(answer.status) \(answer.status < 400 ? "OK" : "Error")\r\n"
            + "Content-Type: \(answer.contentType)\r\nCache-Control: no-store\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + body
        _ = bytes.withUnsafeBufferPointer { write(client, $0.baseAddress, $0.count) }
        shutdown(client, Int32(SHUT_WR))
    }

    /// Reads the whole request (headers and `Content-Length` body) so the client never sees a
    /// reset, and returns its first line.
    private static func readRequestLine(_ client: Int32) -> String? {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let separator = Array("\r\n\r\n".utf8)
        while true {
            let count = read(client, &buffer, buffer.count)
            guard count > 0 else { return nil }
            request += buffer[0..<count]
            guard let end = request.firstRange(of: separator)?.upperBound else { continue }
            let head = String(decoding: request[..<end], as: UTF8.self)
            let length = head.lowercased().split(separator: "\r\n")
                .first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            if request.count - end >= length {
                return head.split(separator: "\r\n").first.map(String.init)
            }
        }
    }
}
