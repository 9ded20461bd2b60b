import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import RiderDomain
import Synchronization

/// Sends requests with AsyncHTTPClient (SwiftNIO): RiderKit's default transport on Linux.
///
/// Measured on loopback (docs/performance.md), it answers several times as many requests per
/// second as ``URLSessionTransport`` and keeps scaling with concurrent tasks, where the curl-based
/// URLSession does not. Like every transport it maps its failures to ``RiderError`` at this seam,
/// so nothing above it sees a NIO or AsyncHTTPClient error.
///
/// What it does that a bare `HTTPClient` would not:
/// - never follows a redirect (RiderKit does, dropping credentials when the origin changes);
/// - refuses a response body larger than ``Configuration/maximumResponseBytes``, before reading
///   it when `Content-Length` says so;
/// - fails at once when nothing listens, instead of retrying the connection until the timeout;
/// - reads proxies from the environment as curl does (``ProxyEnvironment``);
/// - never sends a request that is not safe to repeat (POST, PATCH) over a connection that sat
///   idle in a pool, where the server may be closing it at that very moment: such a request goes
///   out on a connection of its own (`Connection: close`), so no stale connection can fail it;
/// - sends a request once more, on another connection, when the pooled keep-alive connection it
///   was given turns out to have been closed by the server before the server read the request
///   (see ``isStaleConnection(_:)``), and closes idle connections before common servers do.
///
/// The transport owns its connection pools; they close when it is released (or call
/// ``shutdown()`` to wait for it).
public final class AsyncHTTPClientTransport: HTTPTransport {
    /// Limits and settings the transport applies whatever the request asks.
    public struct Configuration: Sendable {
        /// Used when a request names no timeout: the time allowed until the response head
        /// arrives, and the longest silence allowed while the body is read.
        public var timeout: TimeInterval
        /// Responses larger than this fail with ``RiderError/malformedResponse(_:underlying:)`` rather than
        /// exhausting memory.
        public var maximumResponseBytes: Int
        /// Which proxy each request goes through.
        public var proxies: ProxyEnvironment
        /// How long idle keep-alive connections stay open: 4 s by default, below the 5 s after
        /// which Apache, Node.js and many proxies close them, so a request seldom meets a
        /// connection the server is closing (when it does, it is sent again once).
        public var idleConnectionTimeout: TimeInterval
        /// Connections kept open to one host; requests beyond them wait their turn before their
        /// timeout starts.
        public var connectionsPerHost: Int

        /// - Parameter proxies: by default read from this process's environment.
        public init(timeout: TimeInterval = 15, maximumResponseBytes: Int = 8 << 20,
                    proxies: ProxyEnvironment = ProxyEnvironment(environment: ProcessInfo.processInfo.environment),
                    idleConnectionTimeout: TimeInterval = 4, connectionsPerHost: Int = 8) {
            self.timeout = timeout
            self.maximumResponseBytes = maximumResponseBytes
            self.proxies = proxies
            self.idleConnectionTimeout = idleConnectionTimeout
            self.connectionsPerHost = max(1, connectionsPerHost)
        }
    }

    private let configuration: Configuration
    /// One client per proxy route (a client has one proxy setting) and per kind of connection
    /// (pooled, or one of its own per request), made on first use so that a program answering
    /// from its cache starts no event-loop threads.
    private let clients = Mutex<[ClientKey: HTTPClient]>([:])

    private struct ClientKey: Hashable {
        let route: ProxyEnvironment.Route
        /// A connection of its own for each request, never one from the pool.
        let ownConnection: Bool
    }
    private let isShutDown = Atomic<Bool>(false)
    /// Requests in flight, at most one per pooled connection (see ``ConnectionSlots``).
    private let slots: ConnectionSlots

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        // Per transport rather than per host: RiderKit talks to one API origin.
        slots = ConnectionSlots(limit: configuration.connectionsPerHost)
    }

    deinit {
        // A client must be shut down before it is released; the pending shutdown keeps it alive
        // until its connections are closed.
        for client in clients.withLock({ Array($0.values) }) { client.shutdown { _ in } }
    }

    /// Closes every connection and waits for it. Requests sent afterwards fail with
    /// ``RiderError/invalidConfiguration(_:underlying:)``.
    public func shutdown() async {
        isShutDown.store(true, ordering: .sequentiallyConsistent)
        for client in clients.withLock({ Array($0.values) }) {
            try? await client.shutdown().get()
        }
    }

    private func client(for route: ProxyEnvironment.Route, ownConnection: Bool) throws -> HTTPClient {
        let key = ClientKey(route: route, ownConnection: ownConnection)
        return try clients.withLock { clients in
            if let client = clients[key] { return client }
            guard !isShutDown.load(ordering: .sequentiallyConsistent) else {
                throw RiderError.invalidConfiguration("the HTTP transport has been shut down")
            }
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                                    configuration: Self.clientConfiguration(configuration, proxy: route))
            clients[key] = client
            return client
        }
    }

    private static func clientConfiguration(_ configuration: Configuration,
                                            proxy route: ProxyEnvironment.Route) -> HTTPClient.Configuration {
        let timeout = amount(configuration.timeout)
        var pool = HTTPClient.Configuration.ConnectionPool(
            idleTimeout: amount(configuration.idleConnectionTimeout),
            concurrentHTTP1ConnectionsPerHostSoftLimit: configuration.connectionsPerHost)
        // Retrying a refused connection until the deadline would turn "the server is down" into a
        // 15-second wait; RiderKit's own retry policy decides what is retried.
        pool.retryConnectionEstablishment = false
        var client = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: min(timeout, .seconds(10)), read: timeout),
            connectionPool: pool,
            proxy: route.asyncHTTPClientProxy,
            decompression: .disabled)
        client.httpVersion = .automatic
        // RiderKit makes the request's span itself (its route template, attempts and status, never
        // the URL's query); AsyncHTTPClient's own would repeat it per attempt with the full URL.
        client.tracing.tracer = nil
        return client
    }

    /// A `TimeAmount` for a number of seconds from configuration, kept finite and positive.
    private static func amount(_ seconds: TimeInterval) -> TimeAmount {
        guard seconds.isFinite, seconds > 0 else { return .milliseconds(1) }
        return .nanoseconds(Int64(min(seconds, 365 * 86_400) * 1_000_000_000))
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        if let problem = configuration.proxies.problem { throw RiderError.invalidConfiguration(problem) }
        guard request.hasHTTPURL else { throw RiderError.invalidConfiguration("the URL for \(request) is not usable") }
        try Task.checkCancellation()

        let route = configuration.proxies.route(for: request.url)
        // A request that must not be sent twice never meets a connection the server may be
        // closing as it arrives; the handshake it costs is measured in docs/performance.md.
        let ownConnection = !request.method.isIdempotent
        let client = try client(for: route, ownConnection: ownConnection)
        var request = request
        if ownConnection {
            request.headers.remove("Connection")
            request.headers.add("Connection", "close")
        }
        try await slots.acquire()
        let outcome: Result<HTTPResponse, any Error>
        do {
            outcome = .success(try await exchangeRetryingStale(request, with: client, through: route))
        } catch {
            outcome = .failure(error)
        }
        slots.release()
        return try outcome.get()
    }

    /// The request as AsyncHTTPClient takes it; made afresh for each attempt, since a streamed
    /// body is consumed by the first.
    private static func outgoing(_ request: HTTPRequest) -> HTTPClientRequest {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headers { outgoing.headers.add(name: field.name, value: field.value) }
        if let body = request.body {
            if let observer = UploadProgress.observer, !body.isEmpty {
                // Streamed in slices only when someone listens: AsyncHTTPClient pulls the next
                // slice once the previous one is written, which is the progress to report.
                outgoing.body = .stream(ProgressReportingBody(body, observer: observer), length: .known(Int64(body.count)))
            } else {
                outgoing.body = .bytes(ByteBuffer(bytes: body))
            }
        }
        return outgoing
    }

    /// Sends `request`, and once more when its connection turns out to have been closed by the
    /// server before the server could read the request: a kept-alive connection the server closed
    /// while it sat in the pool (its idle timeout racing our reuse). Two signs, both before any byte
    /// of an answer: NIO refuses the write because the connection is already closed
    /// (`ioOnClosedChannel`: not a byte left this machine), or the server's side resets it
    /// (`ECONNRESET`, `EPIPE`: a socket resets when data reaches it after its close, or it closes
    /// with data unread — the request was not read by the server). Either way the server cannot
    /// have acted on it, so it is sent again once, POST included, as Go's net/http and browsers do
    /// for the same race. A connection that ends cleanly after the write
    /// (`remoteConnectionClosed`) is never a reason here: the server may have read the request and
    /// acted on it (a refresh that rotated the token, say); RiderKit's retry policy decides
    /// whether an idempotent request is sent again then, with its backoff and its budget. A request
    /// that is not idempotent (POST, PATCH) never rides a pooled connection in the first place
    /// (``send(_:)``), so the race cannot fail it.
    private func exchangeRetryingStale(_ request: HTTPRequest, with client: HTTPClient,
                                       through route: ProxyEnvironment.Route) async throws -> HTTPResponse {
        do {
            return try await exchange(Self.outgoing(request), for: request, with: client, through: route)
        } catch is StaleCandidate {
            return try await exchange(Self.outgoing(request), for: request, with: client, through: route,
                                      marksStale: false)
        }
    }

    /// A request refused before it was written, because its connection was already closed.
    private struct StaleCandidate: Error {}

    private func exchange(_ outgoing: HTTPClientRequest, for request: HTTPRequest, with client: HTTPClient,
                          through route: ProxyEnvironment.Route, marksStale: Bool = true) async throws -> HTTPResponse {
        let response: HTTPClientResponse
        do {
            response = try await client.execute(outgoing, timeout: Self.amount(request.timeout ?? configuration.timeout))
        } catch {
            if marksStale, Self.isStaleConnection(error) { throw StaleCandidate() }
            throw Self.map(error, for: request, through: route)
        }
        do {
            let body = try await response.body.collect(upTo: configuration.maximumResponseBytes)
            var headers = RiderDomain.HTTPHeaders()
            for field in response.headers { headers.add(field.name, field.value) }
            return HTTPResponse(status: Int(response.status.code), headers: headers,
                                body: Data(body.readableBytesView))
        } catch is NIOTooManyBytesError {
            throw RiderError.malformedResponse(
                "the answer to \(request) is larger than \(configuration.maximumResponseBytes) bytes")
        } catch {
            throw Self.map(error, for: request, through: route)
        }
    }

    /// Whether `error`, before any byte of an answer, shows a connection the server had closed
    /// without reading the request (see ``exchangeRetryingStale(_:with:through:)``; measured: a
    /// pooled connection closed while idle fails the next request with
    /// `ChannelError.ioOnClosedChannel`, or with a reset when the close and the write cross).
    static func isStaleConnection(_ error: any Error) -> Bool {
        if let error = error as? IOError { return error.errnoCode == ECONNRESET || error.errnoCode == EPIPE }
        guard let error = error as? ChannelError else { return false }
        switch error {
        case .ioOnClosedChannel, .alreadyClosed: return true
        default: return false
        }
    }

    static func map(_ error: any Error, for request: HTTPRequest,
                    through route: ProxyEnvironment.Route = .direct) -> any Error {
        if error is CancellationError || Task.isCancelled { return CancellationError() }
        let host = request.url.host ?? "the server"
        if let error = error as? HTTPClientError {
            switch error {
            case .cancelled:
                return CancellationError()
            case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .tlsHandshakeTimeout,
                .getConnectionFromPoolTimeout, .httpProxyHandshakeTimeout, .socksHandshakeTimeout:
                return RiderError.timedOut
            case .remoteConnectionClosed:
                return RiderError.serverUnreachable(reason: "connection to \(host) lost", underlying: error)
            case .invalidURL, .emptyHost, .emptyScheme:
                return RiderError.invalidConfiguration("the URL for \(request) is not usable")
            case .alreadyShutdown:
                return RiderError.invalidConfiguration("the HTTP transport has been shut down")
            case .invalidProxyResponse, .proxyAuthenticationRequired:
                return RiderError.serverUnreachable(reason: "the \(route) refused to connect to \(host)", underlying: error)
            default:
                if error.isUnsupportedScheme {
                    return RiderError.invalidConfiguration("the URL for \(request) is not usable")
                }
                if error.isInvalidHeader {
                    return RiderError.invalidConfiguration("a header of \(request) is not valid HTTP")
                }
                // Malformed framing, a body shorter than its length, an HTTP/2 protocol error:
                // the answer could not be used, which callers treat like a lost connection.
                return RiderError.serverUnreachable(
                    reason: "\(host) closed the connection without a usable HTTP answer", underlying: error)
            }
        }
        if let error = error as? NIOConnectionError {
            if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil {
                return RiderError.serverUnreachable(reason: "\(host) not found", underlying: error)
            }
            if error.connectionErrors.contains(where: { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }) {
                return RiderError.serverUnreachable(reason: "connection to \(host) refused", underlying: error)
            }
            return RiderError.serverUnreachable(reason: "cannot connect to \(host)", underlying: error)
        }
        if let error = error as? IOError {
            switch error.errnoCode {
            case ECONNREFUSED: return RiderError.serverUnreachable(reason: "connection to \(host) refused", underlying: error)
            case ENETUNREACH, EHOSTUNREACH, ENETDOWN: return RiderError.serverUnreachable(reason: "no network connection", underlying: error)
            case ETIMEDOUT: return RiderError.timedOut
            default: return RiderError.serverUnreachable(reason: "connection to \(host) lost", underlying: error)
            }
        }
        if error is ChannelError || error is HTTPParserError {
            return RiderError.serverUnreachable(reason: "\(host) closed the connection without a usable HTTP answer", underlying: error)
        }
        if String(reflecting: type(of: error)).hasPrefix("NIOSSL.") {
            return RiderError.serverUnreachable(reason: "TLS connection to \(host) failed", underlying: error)
        }
        return RiderError.serverUnreachable(reason: "\(type(of: error)) talking to \(host)", underlying: error)
    }
}

extension HTTPClientError {
    /// `HTTPClientError` is a struct of static members; the ones built from a value (the scheme,
    /// the offending header values — which may be secrets, so never shown) are recognised by name.
    fileprivate var isUnsupportedScheme: Bool { String(describing: self).contains("unsupportedScheme") }
    fileprivate var isInvalidHeader: Bool { String(describing: self).contains("invalidHeaderField") }
}

extension ProxyEnvironment.Route {
    /// The route as AsyncHTTPClient's proxy setting (`nil`: direct), for every client RiderKit
    /// builds on it (this transport, RiderKitMCP's streaming one).
    package var asyncHTTPClientProxy: HTTPClient.Configuration.Proxy? {
        switch self {
        case .direct:
            return nil
        case .http(let host, let port, let username, let password):
            let authorization = username.map { HTTPClient.Authorization.basic(username: $0, password: password ?? "") }
            return .server(host: host, port: port, authorization: authorization)
        case .socks5(let host, let port):
            return .socksServer(host: host, port: port)
        }
    }
}
