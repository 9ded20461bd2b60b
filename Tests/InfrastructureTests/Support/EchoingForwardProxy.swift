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
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var reuse: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        descriptor = fd
        port = UInt16(bigEndian: address.sin_port)
        let log = self.log
        Thread { Self.serve(fd, log: log) }.start()
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
                send("HTTP/1.1 200 Connection established\r\n\r\n", to: client)
                head = readHead(client)
                log.heads.withLock { $0.append(head) }
            }
            let body = Data(head.utf8)
            send("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \(body.count)\r\n"
                 + "Connection: close\r\n\r\n\(head)", to: client)
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

    private static func send(_ text: String, to client: Int32) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
    }
}
