import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A loopback stand-in for a forward HTTP proxy: it accepts a `CONNECT` tunnel (or a request in
/// absolute form) and answers the request itself with `200` and the request head it received as
/// the body, so a test can see that a request went through the proxy, how, and with which
/// `Proxy-Authorization`.
final class EchoingForwardProxy: Sendable {
    let port: UInt16
    private let descriptor: Int32
    private let log = Log()

    /// Every request head received so far.
    var received: [String] { log.heads.withLock { $0 } }

    /// Shared with the serving thread, which must not keep the proxy itself alive.
    private final class Log: Sendable {
        let heads = Mutex<[String]>([])
    }

    init() throws {
        (descriptor, port) = try ProxySocket.listen()
        let log = self.log
        Thread { [descriptor] in Self.serve(descriptor, log: log) }.start()
    }

    deinit {
        // shutdown wakes the thread blocked in accept; close alone would not on Linux.
        Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }

    private static func serve(_ descriptor: Int32, log: Log) {
        while true {
            let client = accept(descriptor, nil, nil)
            guard client >= 0 else { return }
            var head = readHead(client)
            log.heads.withLock { $0.append(head) }
            if head.hasPrefix("CONNECT ") {
                // A tunnel (AsyncHTTPClient tunnels plain http too): play the origin server too.
                ProxySocket.write(client, Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8))
                head = readHead(client)
                log.heads.withLock { $0.append(head) }
            }
            let body = Array(head.utf8)
            ProxySocket.write(client, Array(("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
                + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n").utf8) + body)
            close(client)
        }
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
