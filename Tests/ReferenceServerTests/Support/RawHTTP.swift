import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport

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
        guard let fd = LoopbackSocket.connect(port: UInt16(port)) else {
            throw TestFailure("connect() to port \(port) failed")
        }
        defer { close(fd) }
        // A hang detector: the server answers at once.
        LoopbackSocket.setReceiveTimeout(fd, seconds: 30)
        let request = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        LoopbackSocket.write(fd, Array(request.utf8))
        let text = String(decoding: LoopbackSocket.readToEnd(fd), as: UTF8.self)
        // "HTTP/1.1 421 Misdirected Request"
        let statusLine = text.prefix { $0 != "\r" }.split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw TestFailure("no status line in \(text.prefix(80).debugDescription)")
        }
        return (status, text)
    }
}
