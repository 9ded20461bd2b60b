import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A loopback HTTP/1.1 proxy in front of the reference server that misbehaves on cue: per route
/// (`"POST /auth/token"`) and per request number, it forwards the request, drops the connection
/// before or after forwarding, answers in the server's place, or cuts the body short
/// (issue #7, item 1). It counts what it saw and what reached the server.
///
/// Plain POSIX sockets and a thread per connection; every answer closes its connection, so each
/// request is one connection and one count.
final class FaultInjectingProxy: @unchecked Sendable {
    // @unchecked: `scripts` and `counts` are only touched while `lock` is held.

    enum Fault: Sendable {
        /// Forward and relay the server's answer unchanged.
        case pass
        /// Close the connection without forwarding: the server never sees the request.
        case dropBeforeForwarding
        /// Forward, let the server act on it, then close without answering.
        case dropAfterForwarding
        /// Answer in the server's place; the server never sees the request.
        case answer(status: Int, headers: [(String, String)] = [], body: String = "")
        /// Forward, then relay the status line, the headers (with the full `Content-Length`) and
        /// only half of the body before closing.
        case truncateBody
    }

    let port: UInt16
    private let listener: Int32
    private let upstreamPort: UInt16
    private let lock = NSLock()
    private var scripts: [String: [Fault]] = [:]
    private var always: [String: Fault] = [:]
    private var seen: [String: Int] = [:]
    private var forwarded: [String: Int] = [:]

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }  // swiftlint:disable:this force_unwrapping

    init(upstream: URL) throws {
        guard let upstreamPort = upstream.port.map(UInt16.init) else { throw POSIXError(.EINVAL) }
        self.upstreamPort = upstreamPort
        (listener, port) = try ProxySocket.listen()
        let listener = self.listener
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 {
                    if errno == EINTR { continue }
                    break  // stop() shut the listener down
                }
                Thread.detachNewThread { self.serve(client) }
            }
            close(listener)
        }
    }

    /// The `n`th request to `route` (1-based, counted from now on) gets `faults[n - 1]`; later
    /// ones pass.
    func script(_ route: String, _ faults: [Fault]) {
        withLock { scripts[route] = faults; seen[route] = 0; forwarded[route] = 0 }
    }

    /// Every request to `route` gets `fault` until scripted again.
    func always(_ route: String, _ fault: Fault) {
        withLock { always[route] = fault; seen[route] = 0; forwarded[route] = 0 }
    }

    /// Requests to `route` the proxy received since it was last scripted.
    func attempts(_ route: String) -> Int { withLock { seen[route] ?? 0 } }

    /// Requests to `route` that reached the server since it was last scripted.
    func reachedServer(_ route: String) -> Int { withLock { forwarded[route] ?? 0 } }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func withLock<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    // MARK: - One connection

    private func serve(_ client: Int32) {
        defer { close(client) }
        guard let request = ProxySocket.readRequest(client) else { return }
        let fault: Fault = withLock {
            let count = (seen[request.route] ?? 0) + 1
            seen[request.route] = count
            if let fault = always[request.route] { return fault }
            let script = scripts[request.route] ?? []
            return count <= script.count ? script[count - 1] : .pass
        }
        switch fault {
        case .dropBeforeForwarding:
            return
        case .answer(let status, let headers, let body):
            var head = "HTTP/1.1 \(status) Fault\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            ProxySocket.write(client, Array((head + "\r\n" + body).utf8))
        case .pass, .dropAfterForwarding, .truncateBody:
            guard let response = forward(request) else { return }
            withLock { forwarded[request.route, default: 0] += 1 }
            switch fault {
            case .dropAfterForwarding:
                return
            case .truncateBody:
                let headEnd = ProxySocket.headerEnd(response) ?? response.count
                let bodyLength = response.count - headEnd
                ProxySocket.write(client, Array(response[..<(headEnd + bodyLength / 2)]))
            default:
                ProxySocket.write(client, response)
            }
        }
    }

    /// Sends `request` to the server on a fresh connection and reads its whole answer, marked
    /// `Connection: close` for the client.
    ///
    /// The proxy closes every connection after one answer, but the server does not say so (it
    /// sends no `Connection` header): a client would keep the connection for the next request
    /// and, when it reuses it before noticing the close, lose an attempt that the proxy never
    /// counts — the scripted fault then lands on the wrong attempt (seen once in CI-like runs).
    private func forward(_ request: ProxySocket.Request) -> [UInt8]? {
        guard let upstream = ProxySocket.connect(port: upstreamPort) else { return nil }
        defer { close(upstream) }
        ProxySocket.write(upstream, request.bytesClosingConnection)
        return ProxySocket.closingConnection(ProxySocket.readToEnd(upstream))
    }
}

/// Socket plumbing for ``FaultInjectingProxy``.
enum ProxySocket {
    struct Request {
        var head: String
        var body: [UInt8]

        /// `"POST /auth/token"`: the method and the path without its query.
        var route: String {
            let parts = head.split(separator: " ", maxSplits: 2)
            guard parts.count >= 2 else { return head }
            return "\(parts[0]) \(parts[1].split(separator: "?", maxSplits: 1)[0])"
        }

        /// The request with `Connection: close`, so the server ends the answer by closing.
        var bytesClosingConnection: [UInt8] {
            let lines = head.components(separatedBy: "\r\n").filter {
                !$0.lowercased().hasPrefix("connection:") && !$0.isEmpty
            }
            return Array((lines.joined(separator: "\r\n") + "\r\nConnection: close\r\n\r\n").utf8) + body
        }
    }

    static func listen() throws -> (descriptor: Int32, port: UInt16) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc.listen(descriptor, 64) == 0 else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }

    static func connect(port: UInt16) -> Int32? {
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

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        return address
    }

    /// The request head and its `Content-Length` body, or `nil` when the client went away.
    static func readRequest(_ descriptor: Int32) -> Request? {
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

    static func readToEnd(_ descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { return bytes }
            bytes += buffer[0..<count]
        }
    }

    /// The index just past the blank line that ends the head.
    /// `response` with `Connection: close` added after its status line, unless it says so already.
    static func closingConnection(_ response: [UInt8]) -> [UInt8] {
        guard let end = headerEnd(response),
              !String(decoding: response[..<end], as: UTF8.self).lowercased().contains("\r\nconnection: close"),
              let statusEnd = (0..<(end - 1)).first(where: { response[$0] == 13 && response[$0 + 1] == 10 })
        else { return response }
        return Array(response[..<(statusEnd + 2)]) + Array("Connection: close\r\n".utf8) + Array(response[(statusEnd + 2)...])
    }

    static func headerEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    static func write(_ descriptor: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return }
            offset += written
        }
    }
}
