import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// A loopback HTTP/1.1 proxy in front of the reference server that misbehaves on cue: per route
/// (`"POST /auth/token"`) and per request number, it forwards the request, drops the connection
/// before or after forwarding, answers in the server's place, or cuts the body short
/// — the failures a real network produces. It counts what it saw and what reached the server.
///
/// A thread per connection (``LoopbackListener``); every answer closes its connection, so each
/// request is one connection and one count.
final class FaultInjectingProxy: Sendable {
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

    private let listener: LoopbackListener
    private let script = Script()

    var baseURL: URL { listener.baseURL }

    init(upstream: URL) throws {
        guard let upstreamPort = upstream.port.map(UInt16.init) else { throw POSIXError(.EINVAL) }
        let script = self.script
        listener = try LoopbackListener(concurrently: true) { client in
            Self.serve(client, script: script, upstreamPort: upstreamPort)
        }
    }

    /// The `n`th request to `route` (1-based, counted from now on) gets `faults[n - 1]`; later
    /// ones pass.
    func script(_ route: String, _ faults: [Fault]) {
        script.withLock { $0.scripts[route] = faults; $0.seen[route] = 0; $0.forwarded[route] = 0 }
    }

    /// Every request to `route` gets `fault` until scripted again.
    func always(_ route: String, _ fault: Fault) {
        script.withLock { $0.always[route] = fault; $0.seen[route] = 0; $0.forwarded[route] = 0 }
    }

    /// Requests to `route` the proxy received since it was last scripted.
    func attempts(_ route: String) -> Int { script.withLock { $0.seen[route] ?? 0 } }

    /// Requests to `route` that reached the server since it was last scripted.
    func reachedServer(_ route: String) -> Int { script.withLock { $0.forwarded[route] ?? 0 } }

    func stop() { listener.stop() }

    // MARK: - One connection

    private static func serve(_ client: Int32, script: Script, upstreamPort: UInt16) {
        defer { close(client) }
        guard let request = LoopbackSocket.readRequest(client) else { return }
        let fault: Fault = script.withLock { state in
            let count = (state.seen[request.route] ?? 0) + 1
            state.seen[request.route] = count
            if let fault = state.always[request.route] { return fault }
            let faults = state.scripts[request.route] ?? []
            return count <= faults.count ? faults[count - 1] : .pass
        }
        switch fault {
        case .dropBeforeForwarding:
            return
        case .answer(let status, let headers, let body):
            var head = "HTTP/1.1 \(status) Fault\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            LoopbackSocket.write(client, Array((head + "\r\n" + body).utf8))
        case .pass, .dropAfterForwarding, .truncateBody:
            guard let response = forward(request, to: upstreamPort) else { return }
            script.withLock { $0.forwarded[request.route, default: 0] += 1 }
            switch fault {
            case .dropAfterForwarding:
                return
            case .truncateBody:
                let headEnd = LoopbackSocket.headerEnd(response) ?? response.count
                let bodyLength = response.count - headEnd
                LoopbackSocket.write(client, Array(response[..<(headEnd + bodyLength / 2)]))
            default:
                LoopbackSocket.write(client, response)
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
    private static func forward(_ request: LoopbackSocket.Request, to port: UInt16) -> [UInt8]? {
        guard let upstream = LoopbackSocket.connect(port: port) else { return nil }
        defer { close(upstream) }
        LoopbackSocket.write(upstream, bytesClosingConnection(request))
        return closingConnection(LoopbackSocket.readToEnd(upstream))
    }

    /// The request with `Connection: close`, so the server ends the answer by closing.
    private static func bytesClosingConnection(_ request: LoopbackSocket.Request) -> [UInt8] {
        let lines = request.head.components(separatedBy: "\r\n").filter {
            !$0.lowercased().hasPrefix("connection:") && !$0.isEmpty
        }
        return Array((lines.joined(separator: "\r\n") + "\r\nConnection: close\r\n\r\n").utf8) + request.body
    }

    /// `response` with `Connection: close` added after its status line, unless it says so already.
    private static func closingConnection(_ response: [UInt8]) -> [UInt8] {
        guard let end = LoopbackSocket.headerEnd(response),
              !String(decoding: response[..<end], as: UTF8.self).lowercased().contains("\r\nconnection: close"),
              let statusEnd = (0..<(end - 1)).first(where: { response[$0] == 13 && response[$0 + 1] == 10 })
        else { return response }
        return Array(response[..<(statusEnd + 2)]) + Array("Connection: close\r\n".utf8) + Array(response[(statusEnd + 2)...])
    }

    /// What the test scripted and what the proxy counted, shared with the connection threads.
    private final class Script: @unchecked Sendable {
        // @unchecked: `state` is only touched while `lock` is held.
        struct State {
            var scripts: [String: [Fault]] = [:]
            var always: [String: Fault] = [:]
            var seen: [String: Int] = [:]
            var forwarded: [String: Int] = [:]
        }

        private let lock = NSLock()
        private var state = State()

        func withLock<T>(_ body: (inout State) -> T) -> T {
            lock.withLock { body(&state) }
        }
    }
}
