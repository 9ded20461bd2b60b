import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Plain POSIX TCP sockets on `127.0.0.1`, for the test servers that must send what no HTTP
/// library would (canned bytes, a fault, silence): listening, connecting, reading one request and
/// writing bytes, written once for all of them.
public enum LoopbackSocket {
    /// One HTTP/1.1 request as read off a socket: its head and its `Content-Length` body.
    public struct Request: Sendable {
        /// The request line and the headers, without the blank line that ends them.
        public var head: String
        public var body: [UInt8]

        /// `"POST /auth/token"`: the method and the path without its query.
        public var route: String {
            let parts = head.split(separator: " ", maxSplits: 2)
            guard parts.count >= 2 else { return head }
            return "\(parts[0]) \(parts[1].split(separator: "?", maxSplits: 1)[0])"
        }

        /// The request line (`GET /users/search?q=jo HTTP/1.1`).
        public var requestLine: String { head.components(separatedBy: "\r\n").first ?? head }

        /// The whole request as text, head, blank line and body.
        public var text: String { head + "\r\n\r\n" + String(decoding: body, as: UTF8.self) }
    }

    /// A listening socket on `127.0.0.1` and a port the kernel picked.
    /// - Parameter backlog: how many connections may wait to be accepted.
    /// - Returns: the socket and its port.
    /// - Throws: `POSIXError` when no socket can be made or bound.
    public static func listen(backlog: Int32 = 64) throws -> (descriptor: Int32, port: UInt16) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc.listen(descriptor, backlog) == 0 else {
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
    /// - Throws: `POSIXError` when no socket can be made or bound.
    public static func closedPort() throws -> UInt16 {
        let (descriptor, port) = try listen()
        close(descriptor)
        return port
    }

    /// A connection to `127.0.0.1:port`, or `nil` when nothing accepts it.
    public static func connect(port: UInt16) -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// Makes every read on `descriptor` give up after `seconds`, so a client that never finishes
    /// its request cannot hold a test server's thread forever.
    public static func setReceiveTimeout(_ descriptor: Int32, seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Reads the request head and its `Content-Length` body, so the client never sees a reset.
    /// - Returns: the request, or `nil` when the client went away first.
    public static func readRequest(_ descriptor: Int32) -> Request? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while headerEnd(bytes) == nil {
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { return nil }
            bytes += buffer[0..<count]
        }
        guard let end = headerEnd(bytes) else { return nil }
        let head = String(decoding: bytes[..<(end - 4)], as: UTF8.self)
        let length = head.components(separatedBy: "\r\n")
            .first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        while bytes.count - end < length {
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { return nil }
            bytes += buffer[0..<count]
        }
        return Request(head: head, body: Array(bytes[end..<(end + length)]))
    }

    /// Everything the peer sends until it closes.
    public static func readToEnd(_ descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { return bytes }
            bytes += buffer[0..<count]
        }
    }

    /// The index just past the blank line that ends an HTTP head, or `nil` while it has not come.
    public static func headerEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    /// Writes all of `bytes`, or as much as the peer takes before it goes away (never SIGPIPE).
    public static func write(_ descriptor: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return }
            offset += written
        }
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        return address
    }
}
