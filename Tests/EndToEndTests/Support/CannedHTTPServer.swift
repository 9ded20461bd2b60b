import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A loopback HTTP/1.1 server that answers every request with the same raw bytes, to feed
/// `rider` a response the reference server would never send. Plain POSIX sockets, one thread.
final class CannedHTTPServer: Sendable {
    let port: UInt16
    private let descriptor: Int32
    private let log = RequestLog()

    init(response: String) throws {
        (descriptor, port) = try LoopbackSocket.listen()
        let listener = descriptor
        let bytes = Array(response.utf8)
        let log = self.log
        Thread.detachNewThread {
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 {
                    if errno == EINTR { continue }
                    break  // stop() shut the listener down
                }
                Self.answer(client, with: bytes, log: log)
            }
            close(listener)
        }
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Every request received so far, head and body as text, in arrival order.
    var requests: [String] { log.all }

    /// Wakes the accepting thread, which then closes the socket.
    func stop() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Reads the whole request (headers and `Content-Length` body) so the client never sees a
    /// reset, then writes the canned bytes and closes.
    private static func answer(_ client: Int32, with response: [UInt8], log: RequestLog) {
        defer { close(client) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let separator = Array("\r\n\r\n".utf8)
        while true {
            let count = read(client, &buffer, buffer.count)
            guard count > 0 else { return }
            request += buffer[0..<count]
            guard let end = request.firstRange(of: separator)?.upperBound else { continue }
            let head = String(decoding: request[..<end], as: UTF8.self).lowercased()
            let length = head.split(separator: "\r\n")
                .first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            if request.count - end >= length { break }
        }
        log.append(String(decoding: request, as: UTF8.self))
        _ = response.withUnsafeBufferPointer { write(client, $0.baseAddress, $0.count) }
        shutdown(client, Int32(SHUT_WR))
    }
}

/// Loopback TCP sockets for tests.
enum LoopbackSocket {
    /// A listening socket on `127.0.0.1` and a free port.
    static func listen() throws -> (descriptor: Int32, port: UInt16) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, Glibc.listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }

    /// A loopback port with nothing listening on it: bound, then released at once.
    static func closedPort() throws -> UInt16 {
        let (descriptor, port) = try listen()
        close(descriptor)
        return port
    }
}

/// The requests a canned server received, shared with its accepting thread.
private final class RequestLog: @unchecked Sendable {
    private let lock = NSLock()
    private var requests: [String] = []

    func append(_ request: String) { lock.withLock { requests.append(request) } }
    var all: [String] { lock.withLock { requests } }
}
