import Foundation

/// The lowest floor for a request on the host the benchmark runs on: one kept-alive HTTP/1.1
/// connection over a plain POSIX socket, a fixed request, and just enough parsing to find the
/// end of the answer. It is what loopback and the server allow, with no client library at all.
final class RawHTTPConnection {
    private let socket: Int32
    private let request: [UInt8]
    private var buffer = [UInt8](repeating: 0, count: 64 * 1_024)

    init(url: URL, headers: [(String, String)]) throws {
        guard let host = url.host, let port = url.port, host == "127.0.0.1" else {
            throw BenchFailure("the raw client speaks to 127.0.0.1:PORT only, not \(url)")
        }
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw BenchFailure("socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socket)
            throw BenchFailure("connect() failed: errno \(errno)")
        }
        var noDelay: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        var text = "GET \(url.path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        request = Array((text + "\r\n").utf8)
        self.socket = socket
    }

    deinit { close(socket) }

    /// Sends the request and reads the whole answer; returns its status code.
    func roundTrip() throws -> Int {
        var sent = 0
        while sent < request.count {
            let written = request[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
            guard written > 0 else { throw BenchFailure("send() failed: errno \(errno)") }
            sent += written
        }
        var received: [UInt8] = []
        var headerEnd: Int?
        var bodyLength = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw BenchFailure("the server closed the connection") }
            received.append(contentsOf: buffer[0..<count])
            if headerEnd == nil, let end = Self.headerEnd(in: received) {
                headerEnd = end
                bodyLength = Self.contentLength(String(decoding: received[0..<end], as: UTF8.self)) ?? 0
            }
            if let end = headerEnd, received.count >= end + bodyLength {
                let statusLine = String(decoding: received.prefix(12), as: UTF8.self)
                return Int(statusLine.dropFirst(9).prefix(3)) ?? 0
            }
        }
    }

    private static func headerEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count
        where bytes[index - 3] == 13 && bytes[index - 2] == 10 && bytes[index - 1] == 13 && bytes[index] == 10 {
            return index + 1
        }
        return nil
    }

    private static func contentLength(_ head: String) -> Int? {
        for line in head.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" {
                return Int(parts[1].trimmingCharacters(in: .whitespaces))
            }
        }
        return nil
    }
}
