import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// A loopback server that reads each request whole and never answers: a server that hangs, to
/// see what `rider` does while it waits and when its timeout ends the wait. Each connection is
/// held on a thread of its own until `stop()` (or 60 s), then closed.
final class SilentHTTPServer: Sendable {
    private let listener: LoopbackListener
    private let log = SilentRequestLog()

    init() throws {
        let log = self.log
        listener = try LoopbackListener(concurrently: true) { client in
            LoopbackSocket.setReceiveTimeout(client, seconds: 5)
            if let request = LoopbackSocket.readRequest(client) { log.append(request.requestLine) }
            // Silence: wait without answering until stopped (or a minute, a hang detector).
            _ = log.stopped.wait(timeout: .now() + 60)
            log.stopped.signal()
            close(client)
        }
    }

    var baseURL: String { "http://127.0.0.1:\(listener.port)" }

    /// The request lines received so far (`GET /users/u_000001 HTTP/1.1`), in arrival order.
    var requests: [String] { log.all }

    /// Closes every held connection and the listener.
    func stop() {
        log.stopped.signal()
        listener.stop()
    }
}

/// The requests a silent server read, and the signal that ends its silence.
private final class SilentRequestLog: @unchecked Sendable {
    // @unchecked: `requests` is guarded by `lock`; DispatchSemaphore is thread-safe.
    private let lock = NSLock()
    private var requests: [String] = []
    let stopped = DispatchSemaphore(value: 0)

    func append(_ request: String) { lock.withLock { requests.append(request) } }
    var all: [String] { lock.withLock { requests } }
}
