import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One HTTP/1.1 request written byte for byte over a loopback socket, for what URL clients
/// will not send: a `Host` of the test's choosing.
enum RawHTTP {
    /// Sends `method path` to `127.0.0.1:port` with `Host: host` and `Connection: close`.
    ///
    /// The socket calls block, so they run on a thread of their own: on the cooperative pool
    /// (two threads on a two-core machine) they would starve the in-process server they wait for.
    /// - Returns: The status code and the whole response text.
    static func send(port: Int, method: String = "GET", path: String, host: String) async throws -> (status: Int, text: String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try exchange(port: port, method: method, path: path, host: host) })
            }.start()
        }
    }

    private static func exchange(port: Int, method: String, path: String, host: String) throws -> (status: Int, text: String) {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw TestFailure("socket() failed") }
        defer { close(fd) }
        // A hang detector: the server answers at once.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw TestFailure("connect() to port \(port) failed") }
        let request = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        let bytes = Array(request.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { throw TestFailure("write() failed") }
            written += count
        }
        var response = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw TestFailure("read() failed: errno \(errno) after \(response.count) bytes") }
            guard count > 0 else { break }
            response.append(contentsOf: buffer[0..<count])
        }
        let text = String(decoding: response, as: UTF8.self)
        // "HTTP/1.1 421 Misdirected Request"
        let statusLine = text.prefix { $0 != "\r" }.split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw TestFailure("no status line in \(text.prefix(80).debugDescription)")
        }
        return (status, text)
    }
}
