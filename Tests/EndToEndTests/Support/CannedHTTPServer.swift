import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// A loopback HTTP/1.1 server that answers every request with the same raw bytes, to feed
/// `rider` a response the reference server would never send. One thread (``LoopbackListener``).
final class CannedHTTPServer: Sendable {
    private let listener: LoopbackListener
    private let log = RequestLog()

    init(response: String) throws {
        let bytes = Array(response.utf8)
        let log = self.log
        listener = try LoopbackListener { client in Self.answer(client, with: bytes, log: log) }
    }

    var port: UInt16 { listener.port }
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Every request received so far, head and body as text, in arrival order.
    var requests: [String] { log.all }

    func stop() { listener.stop() }

    /// Reads the whole request so the client never sees a reset, then writes the canned bytes
    /// and closes.
    private static func answer(_ client: Int32, with response: [UInt8], log: RequestLog) {
        defer { close(client) }
        LoopbackSocket.setReceiveTimeout(client, seconds: 5)
        guard let request = LoopbackSocket.readRequest(client) else { return }
        log.append(request.text)
        LoopbackSocket.write(client, response)
        shutdown(client, Int32(SHUT_WR))
    }
}

/// The requests a canned server received, shared with its accepting thread.
private final class RequestLog: @unchecked Sendable {
    private let lock = NSLock()
    private var requests: [String] = []

    func append(_ request: String) { lock.withLock { requests.append(request) } }
    var all: [String] { lock.withLock { requests } }
}
