import AsyncHTTPClient
import Foundation
import Logging
import MCP
import NIOCore
import NIOHTTP1
import RiderApplication
import RiderDomain
import RiderKit
import Synchronization

// RiderKit's HTTP types, the ones the authorizer speaks; NIOHTTP1 and the SDK have their own.
typealias HTTPRequest = RiderDomain.HTTPRequest
typealias HTTPResponse = RiderDomain.HTTPResponse
typealias HTTPHeaders = RiderDomain.HTTPHeaders
typealias HTTPMethod = RiderDomain.HTTPMethod

/// The MCP streamable HTTP transport (MCP specification 2025-06-18 and 2025-11-25, "Transports")
/// for the MCP Swift SDK's `Client`, on AsyncHTTPClient, with a Server-Sent Events parser that
/// works on Linux too.
///
/// ```swift
/// let transport = StreamableHTTPTransport(endpoint: URL(string: "https://mcp.example.com/mcp")!,
///                                         authorizer: RiderSessionAuthorizer(rider))
/// let client = Client(name: "my-agent", version: "1.0")
/// try await client.connect(transport: transport)      // initialize
/// let (tools, _) = try await client.listTools()
/// await client.disconnect()                             // DELETE of the MCP session
/// ```
///
/// Each message is POSTed with `Accept: application/json, text/event-stream`; the answer is one
/// JSON message, or an event stream whose events each carry one (``receive()`` yields them in
/// order), or 202 for a notification or a response. The `Mcp-Session-Id` the server gives with
/// its answer to `initialize` goes with every later request, the negotiated
/// `MCP-Protocol-Version` too; ``disconnect()`` ends the MCP session with a DELETE. An event
/// stream that breaks before it carried its answer is resumed with a GET and `Last-Event-ID`,
/// after the delay the server set with `retry`. With ``Configuration/listensForServerMessages``
/// a GET stream receives what the server sends on its own.
///
/// Errors: ``MCPTransportError`` (a 403 `insufficient_scope` carries the server's challenge),
/// `RiderError.serverUnreachable` when the server cannot be reached, and what the authorizer
/// throws. `send` returns once its answer has been received (and handed to ``receive()``), so
/// the `Client` request that sent it fails with the error. Redirects are never followed.
/// Nothing is logged that holds a token or the session id.
public actor StreamableHTTPTransport: Transport {
    /// How the transport behaves; the defaults suit most servers.
    public struct Configuration: Sendable {
        /// Whether to open a GET event stream, once the session is initialized, for the messages
        /// the server sends on its own (a server that offers none answers 405, and that is fine).
        public var listensForServerMessages = false
        /// The most bytes one event of an event stream may hold.
        public var maximumEventSize = 4 << 20
        /// The most bytes a JSON answer may have.
        public var maximumResponseSize = 16 << 20
        /// How many times in a row a broken event stream is resumed without receiving an event.
        public var resumptionAttempts = 3
        /// The delay before resuming a stream whose server set no `retry`.
        public var defaultReconnectionTime: Duration = .seconds(1)
        /// The longest wait for a connection to the server.
        public var connectTimeout: Duration = .seconds(10)
        /// The proxies requests go through, as RiderKit's own requests do (loopback never):
        /// read from this process's environment (`https_proxy`, `no_proxy`, …) unless told.
        public var proxies = ProxyEnvironment(environment: ProcessInfo.processInfo.environment)

        public init() {}
    }

    /// The MCP endpoint every message is sent to.
    public nonisolated let endpoint: URL
    /// Logs requests (method, status, event ids), never a header's value.
    public nonisolated let logger: Logger
    /// The MCP session id the server gave (`Mcp-Session-Id`), once initialized.
    public private(set) var sessionID: String?
    /// The protocol version the server chose in its answer to `initialize`, sent as
    /// `MCP-Protocol-Version` on every later request.
    public private(set) var protocolVersion: String?

    private let configuration: Configuration
    private let authorizer: (any MCPRequestAuthorizer)?
    private let client: HTTPClient
    private let messages: AsyncThrowingStream<Data, any Error>
    private let messageContinuation: AsyncThrowingStream<Data, any Error>.Continuation
    private var isConnected = false
    private var isShutDown = false
    /// The id of the `initialize` request in flight, to read the negotiated version from its answer.
    private var initializeID: MessageID?
    private var listeningTask: Task<Void, Never>?
    /// A proxy variable that could not be read: `connect()` refuses rather than go around it.
    private let proxyProblem: String?

    /// - Parameters:
    ///   - endpoint: the server's MCP endpoint (its URL, path included).
    ///   - authorizer: gives each request its credentials; `nil` sends them without any.
    ///   - configuration: limits and the optional GET stream.
    ///   - logger: where requests are logged; nowhere unless given.
    public init(endpoint: URL, authorizer: (any MCPRequestAuthorizer)? = nil,
                configuration: Configuration = Configuration(), logger: Logger? = nil) {
        self.endpoint = endpoint
        self.authorizer = authorizer
        self.configuration = configuration
        self.logger = logger ?? Logger(label: "riderkit.mcp.transport", factory: { _ in SwiftLogNoOpLogHandler() })
        var clientConfiguration = HTTPClient.Configuration(
            // A redirect would carry the credentials and the message elsewhere: never followed.
            redirectConfiguration: .disallow,
            // No read timeout: an event stream may rightly stay quiet for as long as a tool runs.
            timeout: .init(connect: .seconds(max(1, configuration.connectTimeout.components.seconds)), read: nil),
            decompression: .disabled)
        clientConfiguration.tracing.tracer = nil
        clientConfiguration.proxy = configuration.proxies.route(for: endpoint).asyncHTTPClientProxy
        proxyProblem = configuration.proxies.problem
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration)
        (messages, messageContinuation) = AsyncThrowingStream.makeStream()
    }

    deinit {
        // A client must be shut down before it is released; after disconnect() this is a no-op.
        if !isShutDown { client.shutdown { _ in } }
    }

    /// Readies the transport; the first message sent (the SDK's `initialize`) opens the session.
    /// - Throws: `RiderError.invalidConfiguration` when a proxy variable cannot be read.
    public func connect() async throws {
        guard !isShutDown else { throw MCPTransportError(.notConnected, "the MCP transport has been disconnected") }
        if let proxyProblem { throw RiderError.invalidConfiguration(proxyProblem) }
        isConnected = true
    }

    /// Ends the MCP session on the server (DELETE with its `Mcp-Session-Id`; a server that does
    /// not allow it answers 405, which is fine), stops the GET stream and finishes ``receive()``.
    public func disconnect() async {
        guard isConnected else { return }
        isConnected = false
        listeningTask?.cancel()
        listeningTask = nil
        if sessionID != nil {
            do {
                let response = try await exchange(request(.delete, accept: nil)).response
                logger.debug("MCP session ended", metadata: ["status": "\(response.status)"])
            } catch {
                logger.debug("MCP session could not be ended", metadata: ["error": "\(error)"])
            }
            sessionID = nil
        }
        messageContinuation.finish()
        isShutDown = true
        try? await client.shutdown()
    }

    /// The messages the server sends: answers, and its own requests and notifications.
    public func receive() -> AsyncThrowingStream<Data, any Error> { messages }

    /// POSTs one JSON-RPC message (or batch) and hands what the server answers to ``receive()``.
    ///
    /// A 403 `insufficient_scope` is offered to the authorizer
    /// (``MCPRequestAuthorizer/stepUp(for:)``); when it obtained the scopes, the message is sent
    /// once more, and only once.
    /// - Throws: ``MCPTransportError``, `RiderError.serverUnreachable`, or what the authorizer throws.
    public func send(_ data: Data) async throws {
        guard isConnected else { throw MCPTransportError(.notConnected, "the MCP transport is not connected") }
        do {
            try await post(data)
        } catch let error as MCPTransportError {
            guard error.code == .insufficientScope, let authorizer, let asked = error.insufficientScope,
                  try await authorizer.stepUp(for: asked) else { throw error }
            logger.debug("MCP message sent again after a step-up")
            try await post(data)
        }
    }

    private func post(_ data: Data) async throws {
        let outgoing = Envelope.read(data)
        let isInitialize = outgoing.contains { $0.method == "initialize" }
        if isInitialize { initializeID = outgoing.first { $0.method == "initialize" }?.id }
        let awaited = Set(outgoing.filter { $0.method != nil }.compactMap(\.id))
        var post = request(.post, accept: "application/json, text/event-stream")
        post.headers.add("Content-Type", "application/json")
        post.body = data
        let (response, stream) = try await exchange(post)
        try noteSessionID(in: response, initializing: isInitialize)
        logger.debug("MCP message sent", metadata: ["status": "\(response.status)"])
        switch response.status {
        case 202:
            return
        case 200..<300:
            if let stream {
                try await read(stream, awaiting: awaited)
            } else if !response.body.isEmpty {
                guard Self.mediaType(of: response) == "application/json" else {
                    throw MCPTransportError(.malformedResponse, "the MCP server answered with "
                        + "\(Self.mediaType(of: response) ?? "no content type"), not JSON or an event stream")
                }
                deliver(response.body)
            }
            if isInitialize { startListening() }
        default:
            throw failure(response)
        }
    }

    // MARK: Requests

    /// A request to the endpoint with the session's headers.
    private func request(_ method: HTTPMethod, accept: String?) -> HTTPRequest {
        var headers = HTTPHeaders()
        if let accept { headers.add("Accept", accept) }
        if let sessionID { headers.add("Mcp-Session-Id", sessionID) }
        if let protocolVersion { headers.add("MCP-Protocol-Version", protocolVersion) }
        return HTTPRequest(method: method, url: endpoint, headers: headers, followsRedirects: false)
    }

    /// Sends `request` through the authorizer; an event stream's body is handed back unread.
    private func exchange(_ request: HTTPRequest) async throws -> (response: HTTPResponse, stream: HTTPClientResponse.Body?) {
        let held = HeldBody()
        let send: @Sendable (HTTPRequest) async throws -> HTTPResponse = { [client, configuration] request in
            try await Self.execute(request, client: client, configuration: configuration, holding: held)
        }
        let response: HTTPResponse
        if let authorizer {
            response = try await authorizer.authorize(request, send: send)
        } else {
            response = try await send(request)
        }
        let stream = held.take()
        return (response, response.isSuccess ? stream : nil)
    }

    /// One request on the wire. The body of a 2xx event stream is put in `held` and the
    /// response's body left empty; any other body is read whole (up to the configured bound).
    private static func execute(_ request: HTTPRequest, client: HTTPClient, configuration: Configuration,
                                holding held: HeldBody) async throws -> HTTPResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        do {
            let answer = try await client.execute(outgoing, timeout: .hours(24 * 365))
            let headers = HTTPHeaders(answer.headers.map { ($0.name, $0.value) })
            var response = HTTPResponse(status: Int(answer.status.code), headers: headers)
            if response.isSuccess, mediaType(of: response) == "text/event-stream" {
                held.hold(answer.body)
                return response
            }
            let body = try await answer.body.collect(upTo: configuration.maximumResponseSize)
            response.body = Data(body.readableBytesView)
            return response
        } catch let error as NIOTooManyBytesError {
            throw MCPTransportError(.malformedResponse, "an answer of the MCP server is larger than "
                + "\(configuration.maximumResponseSize) bytes (\(error))")
        } catch let error as HTTPClientError {
            throw RiderError.serverUnreachable(reason: "the MCP server at \(origin(of: request.url)) could not be "
                + "reached (\(error.shortDescription))", underlying: error)
        } catch let error as IOError {
            throw RiderError.serverUnreachable(reason: "the MCP server at \(origin(of: request.url)) could not be "
                + "reached (\(error))", underlying: error)
        }
    }

    private func noteSessionID(in response: HTTPResponse, initializing: Bool) throws {
        guard response.isSuccess, let value = response.headers["Mcp-Session-Id"] else { return }
        // Visible ASCII only (0x21–0x7E), as the specification requires: anything else would be
        // sent back in a header unchecked.
        guard !value.isEmpty, value.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw MCPTransportError(.malformedResponse, "the MCP server's Mcp-Session-Id holds characters "
                + "other than visible ASCII")
        }
        if initializing || sessionID == nil { sessionID = value }
    }

    /// The error for a status the protocol does not allow here.
    private func failure(_ response: HTTPResponse) -> any Error {
        switch response.status {
        case 401:
            return MCPTransportError(.unauthorized, "the MCP server refused the request's credentials (401)")
        case 403:
            if let challenge = AuthenticationChallenge.challenges(in: response)
                .first(where: { $0.error == "insufficient_scope" }) {
                let scope = challenge.scope.map { " (it asks for \"\(Self.printable($0))\")" } ?? ""
                return MCPTransportError(.insufficientScope, "the session lacks a scope the MCP server requires\(scope)",
                                         insufficientScope: .init(challenge))
            }
            return MCPTransportError(.unexpectedStatus(403), "the MCP server refused the request (403)")
        case 404 where sessionID != nil:
            sessionID = nil
            protocolVersion = nil
            return MCPTransportError(.sessionExpired, "the MCP server no longer knows the session (404); "
                + "connect again to start a new one")
        default:
            return MCPTransportError(.unexpectedStatus(response.status),
                                     "the MCP server answered \(response.status) to \(Self.printable(endpoint.path))")
        }
    }

    // MARK: Event streams

    /// Reads an event stream to its end, or until every awaited answer came; resumes it with
    /// `Last-Event-ID` when it breaks before that.
    private func read(_ stream: HTTPClientResponse.Body, awaiting: Set<MessageID>) async throws {
        var parser = ServerSentEventParser(maximumEventSize: configuration.maximumEventSize)
        // A stream that answers a notification carries no answer: it is read to its end.
        let awaitsAnswers = !awaiting.isEmpty
        var awaiting = awaiting
        var body = stream
        var attempts = 0
        while true {
            do {
                for try await chunk in body {
                    let events = try parser.parse(chunk.readableBytesView)
                    if !events.isEmpty { attempts = 0 }
                    for event in events where event.type == "message" && !event.data.isEmpty {
                        awaiting.subtract(deliver(Data(event.data.utf8)))
                    }
                    // The server should close the stream after the last answer; not waiting for it.
                    if awaitsAnswers, awaiting.isEmpty { return }
                }
                logger.debug("MCP event stream ended", metadata: ["lastEventID": "\(parser.lastEventID)"])
            } catch let error as ServerSentEventError {
                throw MCPTransportError(.malformedResponse, "the MCP server's event stream: \(error)")
            } catch {
                if Task.isCancelled { throw error }
                logger.debug("MCP event stream broke", metadata: ["error": "\(error)"])
            }
            parser.finish()
            if awaiting.isEmpty { return }
            guard !parser.lastEventID.isEmpty else {
                throw MCPTransportError(.streamEnded, "the MCP server's event stream ended before it carried "
                    + "the answer, and gave no event id to resume it from")
            }
            guard attempts < configuration.resumptionAttempts else {
                throw MCPTransportError(.streamEnded, "the MCP server's event stream ended before it carried "
                    + "the answer, and \(attempts) attempts to resume it received nothing")
            }
            attempts += 1
            try await Task.sleep(for: reconnectionDelay(parser))
            body = try await resume(from: parser.lastEventID)
        }
    }

    private func reconnectionDelay(_ parser: ServerSentEventParser) -> Duration {
        parser.reconnectionTime.map { .milliseconds(min($0, 3_600_000)) } ?? configuration.defaultReconnectionTime
    }

    /// A GET that resumes the stream after `lastEventID` (or, without one, opens the server's own).
    private func resume(from lastEventID: String?) async throws -> HTTPClientResponse.Body {
        var get = request(.get, accept: "text/event-stream")
        if let lastEventID, !lastEventID.isEmpty { get.headers.add("Last-Event-ID", lastEventID) }
        logger.debug("MCP event stream opened", metadata: ["lastEventID": "\(lastEventID ?? "")"])
        let (response, stream) = try await exchange(get)
        guard response.isSuccess else { throw failure(response) }
        guard let stream else {
            throw MCPTransportError(.malformedResponse, "the MCP server answered a GET with "
                + "\(Self.mediaType(of: response) ?? "no content type"), not an event stream")
        }
        return stream
    }

    /// The GET stream for the server's own messages, once the session is initialized.
    private func startListening() {
        guard configuration.listensForServerMessages, listeningTask == nil else { return }
        listeningTask = Task { await self.listen() }
    }

    private func listen() async {
        var parser = ServerSentEventParser(maximumEventSize: configuration.maximumEventSize)
        var attempts = 0
        while !Task.isCancelled, isConnected {
            do {
                let body = try await resume(from: parser.lastEventID)
                for try await chunk in body {
                    let events = try parser.parse(chunk.readableBytesView)
                    if !events.isEmpty { attempts = 0 }
                    for event in events where event.type == "message" && !event.data.isEmpty {
                        deliver(Data(event.data.utf8))
                    }
                }
            } catch let error as MCPTransportError where error.code == .unexpectedStatus(405) {
                logger.debug("The MCP server offers no stream of its own (405)")
                return
            } catch {
                if Task.isCancelled { return }
                logger.debug("MCP server stream broke", metadata: ["error": "\(error)"])
            }
            parser.finish()
            attempts += 1
            guard attempts <= configuration.resumptionAttempts else {
                logger.warning("MCP server stream given up after \(attempts - 1) attempts to resume it")
                return
            }
            try? await Task.sleep(for: reconnectionDelay(parser))
        }
    }

    // MARK: Messages

    /// Hands a message to ``receive()``.
    /// - Returns: the ids of the answers it holds.
    @discardableResult
    private func deliver(_ data: Data) -> Set<MessageID> {
        let incoming = Envelope.read(data)
        for message in incoming where message.method == nil {
            if let id = message.id, id == initializeID, let version = message.result?.protocolVersion {
                protocolVersion = version
                initializeID = nil
            }
        }
        messageContinuation.yield(data)
        return Set(incoming.filter { $0.method == nil }.compactMap(\.id))
    }

    // MARK: Helpers

    private static func mediaType(of response: HTTPResponse) -> String? {
        response.headers["Content-Type"]?.split(separator: ";").first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    private static func origin(of url: URL) -> String {
        RedirectMiddleware.origin(of: url)
    }

    /// At most 200 printable characters of what a server sent, for a message.
    private static func printable(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(200).map(Character.init))
    }
}

/// A JSON-RPC message id: a string or a number.
enum MessageID: Hashable, Sendable, Decodable {
    case string(String)
    case number(Int)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }
}

/// What the transport reads of a JSON-RPC message: whether it is a request (or notification)
/// or an answer, its id, and an `initialize` answer's protocol version.
struct Envelope: Decodable {
    struct Result: Decodable { var protocolVersion: String? }
    var id: MessageID?
    var method: String?
    var result: Result?

    /// The messages in `data`: one, or a batch; none when it is not JSON-RPC.
    static func read(_ data: Data) -> [Envelope] {
        let decoder = JSONDecoder()
        if let one = try? decoder.decode(Envelope.self, from: data) { return [one] }
        return (try? decoder.decode([Envelope].self, from: data)) ?? []
    }

    enum CodingKeys: CodingKey { case id, method, result }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try? container.decodeIfPresent(MessageID.self, forKey: .id)
        method = try? container.decodeIfPresent(String.self, forKey: .method)
        result = try? container.decodeIfPresent(Result.self, forKey: .result)
    }
}

/// The body of an event-stream answer, kept out of the authorizer's steps (which hold whole
/// bodies) and handed to the transport once they return.
final class HeldBody: Sendable {
    private let body = Mutex<HTTPClientResponse.Body?>(nil)

    func hold(_ stream: HTTPClientResponse.Body) { body.withLock { $0 = stream } }
    func take() -> HTTPClientResponse.Body? { body.withLock { body in defer { body = nil }; return body } }
}
