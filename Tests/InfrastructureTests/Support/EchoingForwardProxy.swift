import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// A loopback stand-in for a forward HTTP proxy: it accepts a `CONNECT` tunnel (or a request in
/// absolute form) and answers the request itself with `200` and the request head it received as
/// the body, so a test can see that a request went through the proxy, how, and with which
/// `Proxy-Authorization`.
final class EchoingForwardProxy: Sendable {
    private let listener: LoopbackListener
    private let log = Log()

    var port: UInt16 { listener.port }

    /// Every request head received so far.
    var received: [String] { log.heads.withLock { $0 } }

    /// Shared with the serving thread, which must not keep the proxy itself alive.
    private final class Log: Sendable {
        let heads = Mutex<[String]>([])
    }

    init() throws {
        let log = self.log
        listener = try LoopbackListener { client in Self.answer(client, log: log) }
    }

    deinit { listener.stop() }

    private static func answer(_ client: Int32, log: Log) {
        defer { close(client) }
        var head = readHead(client)
        log.heads.withLock { $0.append(head) }
        if head.hasPrefix("CONNECT ") {
            // A tunnel (AsyncHTTPClient tunnels plain http too): play the origin server too.
            LoopbackSocket.write(client, Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8))
            head = readHead(client)
            log.heads.withLock { $0.append(head) }
        }
        let body = Array(head.utf8)
        LoopbackSocket.write(client, Array(("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n").utf8) + body)
    }

    private static func readHead(_ client: Int32) -> String {
        var head = Data()
        var byte: UInt8 = 0
        // Byte by byte, so nothing after the head (a tunnelled request) is swallowed.
        while !head.suffix(4).elementsEqual("\r\n\r\n".utf8), read(client, &byte, 1) == 1 {
            head.append(byte)
        }
        return String(decoding: head, as: UTF8.self)
    }
}
