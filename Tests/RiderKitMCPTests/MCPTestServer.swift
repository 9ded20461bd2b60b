import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// What the test MCP server saw of one request.
struct RecordedRequest: Sendable {
    var method: String
    var path: String
    var jsonRPCMethod: String?
    var authorization: String?
    var dpop: String?
    var sessionID: String?
    var protocolVersion: String?
    var lastEventID: String?
    var accept: String?
}

/// How the test MCP server answers, and what it saw: one per test.
actor MCPTestServerState {
    enum Answer { case json, eventStream }

    /// How POSTed requests are answered.
    var answer: Answer = .eventStream
    /// The bytes an event stream is written in (odd, so lines and CRLFs are cut).
    var chunkSize = 7
    /// The bearer token the MCP endpoint wants; `nil` wants none.
    var requiredToken: String?
    /// Answers the first MCP request with 401 whatever it carries.
    var rejectsFirstRequest = false
    /// `tools/call` ends its event stream after a notification, before the answer; a GET with
    /// `Last-Event-ID` gets the answer.
    var dropsCallStream = false
    /// `tools/call` is answered 403 `insufficient_scope`.
    var callNeedsScope = false
    /// A GET without `Last-Event-ID` opens a stream with one server notification; else 405.
    var offersServerStream = false
    /// Requests in a session are answered 404, as after a server restart.
    var forgetsSessions = false
    /// The `Mcp-Session-Id` `initialize` gives instead of ``sessionID`` (a malformed one, say).
    var issuedSessionID: String?
    /// Token endpoint: the refresh token it accepts and the access token it issues for it.
    var refresh: (accepts: String, issues: String)?

    private(set) var requests: [RecordedRequest] = []
    private(set) var tokenRequests = 0
    private var rejected = false
    /// Events kept for resumption, by the id of the event before them.
    private var replay: [String: String] = [:]
    let sessionID = "session-7f3a"

    func configure(_ change: @Sendable (isolated MCPTestServerState) -> Void) { change(self) }
    func record(_ request: RecordedRequest) { requests.append(request) }
    func rejectOnce() -> Bool {
        guard rejectsFirstRequest, !rejected else { return false }
        rejected = true
        return true
    }
    func keepForReplay(after id: String, _ events: String) { replay[id] = events }
    func replayed(after id: String) -> String? { replay[id] }
    func countTokenRequest() { tokenRequests += 1 }
}

/// A streamable-HTTP MCP server (2025-06-18/2025-11-25 transport) at `/mcp` with one tool,
/// `echo`, written for these tests: JSON or event-stream answers, `Mcp-Session-Id`, a stream
/// dropped mid-way and resumed, 401 and 403 challenges; and a token endpoint for refreshes.
struct MCPTestResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    let state: MCPTestServerState

    func respond(to request: Request, context: Context) async throws -> Response {
        let headers = request.headers
        func header(_ name: String) -> String? { HTTPField.Name(name).flatMap { headers[$0] } }
        let bodyBuffer = try await request.body.collect(upTo: 1 << 20)
        let body = Data(bodyBuffer.readableBytesView)
        let path = request.uri.path
        if path == "/auth/token" { return await token(body) }
        let message = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        await state.record(RecordedRequest(
            method: request.method.rawValue, path: path, jsonRPCMethod: message?["method"] as? String,
            authorization: header("Authorization"), dpop: header("DPoP"), sessionID: header("Mcp-Session-Id"),
            protocolVersion: header("MCP-Protocol-Version"), lastEventID: header("Last-Event-ID"),
            accept: header("Accept")))
        if path == "/moved" { return Response(status: .temporaryRedirect, headers: [.location: "/mcp"]) }
        guard path == "/mcp" else { return Response(status: .notFound) }
        if await state.rejectOnce() { return challenge(.unauthorized, "Bearer realm=\"mcp\"") }
        if let token = await state.requiredToken, header("Authorization") != "Bearer \(token)" {
            return challenge(.unauthorized, "Bearer realm=\"mcp\", error=\"invalid_token\"")
        }
        switch request.method {
        case .delete:
            return Response(status: header("Mcp-Session-Id") == state.sessionID ? .noContent : .notFound)
        case .get:
            if header("Last-Event-ID") == nil, await state.offersServerStream {
                return await stream("id: s1\ndata: " + json(["jsonrpc": "2.0", "method": "notifications/tools/list_changed"])
                    + "\n\n")
            }
            guard let last = header("Last-Event-ID"), let events = await state.replayed(after: last) else {
                return Response(status: .methodNotAllowed)
            }
            return await stream(events)
        case .post:
            break
        default:
            return Response(status: .methodNotAllowed)
        }
        guard let message else { return Response(status: .badRequest) }
        guard let method = message["method"] as? String, let id = message["id"] else {
            return Response(status: .accepted)   // a notification or a response
        }
        let params = message["params"] as? [String: Any] ?? [:]
        if method == "initialize" {
            let version = params["protocolVersion"] as? String ?? "2025-06-18"
            var response = await answer(id: id, result: [
                "protocolVersion": version, "capabilities": ["tools": [String: Any]()],
                "serverInfo": ["name": "test-mcp", "version": "1.0"],
            ])
            response.headers[HTTPField.Name("Mcp-Session-Id")!] = await state.issuedSessionID ?? state.sessionID
            return response
        }
        guard header("Mcp-Session-Id") == state.sessionID else { return Response(status: .badRequest) }
        if await state.forgetsSessions { return Response(status: .notFound) }
        guard header("MCP-Protocol-Version") != nil else { return Response(status: .badRequest) }
        switch method {
        case "tools/list":
            return await answer(id: id, result: ["tools": [[
                "name": "echo", "description": "Says the text back.",
                "inputSchema": ["type": "object", "properties": ["text": ["type": "string"]]],
            ]]])
        case "tools/call":
            if await state.callNeedsScope {
                return challenge(.forbidden, "Bearer error=\"insufficient_scope\", scope=\"mcp:tools mcp:write\", "
                    + "resource_metadata=\"http://127.0.0.1/.well-known/oauth-protected-resource/mcp\"")
            }
            let text = (params["arguments"] as? [String: Any])?["text"] as? String ?? ""
            let result: [String: Any] = ["content": [["type": "text", "text": "echo: \(text)"]], "isError": false]
            if await state.dropsCallStream {
                // A priming event and a log notification, then the stream ends; the answer
                // comes on the GET that resumes after event 2.
                let start = "id: 1\ndata:\n\n" + "retry: 20\nid: 2\ndata: "
                    + json(["jsonrpc": "2.0", "method": "notifications/message",
                            "params": ["level": "info", "data": "working"]]) + "\n\n"
                await state.keepForReplay(after: "2", "id: 3\ndata: " + json(["jsonrpc": "2.0", "id": id, "result": result]) + "\n\n")
                return await stream(start)
            }
            return await answer(id: id, result: result)
        case "ping":
            return await answer(id: id, result: [:])
        default:
            return await answer(id: id, error: ["code": -32601, "message": "Method not found"])
        }
    }

    private func answer(id: Any, result: [String: Any]? = nil, error: [String: Any]? = nil) async -> Response {
        var message: [String: Any] = ["jsonrpc": "2.0", "id": id]
        if let result { message["result"] = result }
        if let error { message["error"] = error }
        switch await state.answer {
        case .json:
            return Response(status: .ok, headers: [.contentType: "application/json"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: json(message))))
        case .eventStream:
            // A comment, a notification, then the answer, with CRLF line endings.
            let events = ": stream for one request\r\n\r\nevent: message\r\nid: a1\r\ndata: "
                + json(["jsonrpc": "2.0", "method": "notifications/message", "params": ["level": "debug", "data": "é🚲"]])
                + "\r\n\r\nid: a2\r\ndata: " + json(message) + "\r\n\r\n"
            return await stream(events)
        }
    }

    /// An event stream, written `chunkSize` bytes at a time.
    private func stream(_ events: String) async -> Response {
        let bytes = Array(events.utf8)
        let size = await state.chunkSize
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                        body: ResponseBody { writer in
            for start in stride(from: 0, to: bytes.count, by: size) {
                try await writer.write(ByteBuffer(bytes: bytes[start..<min(start + size, bytes.count)]))
                try await Task.sleep(for: .milliseconds(1))
            }
            try await writer.finish(nil)
        })
    }

    private func challenge(_ status: HTTPResponse.Status, _ value: String) -> Response {
        Response(status: status, headers: [.wwwAuthenticate: value])
    }

    /// The token endpoint: a refresh grant for the one refresh token it knows.
    private func token(_ body: Data) async -> Response {
        await state.countTokenRequest()
        let form = String(decoding: body, as: UTF8.self)
        guard let refresh = await state.refresh, form.contains("grant_type=refresh_token"),
              form.contains("refresh_token=\(refresh.accepts)") else {
            return Response(status: .badRequest, headers: [.contentType: "application/json"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: "{\"error\":\"invalid_grant\"}")))
        }
        let answer = json(["access_token": refresh.issues, "token_type": "Bearer", "expires_in": 3600,
                           "refresh_token": refresh.accepts + "-next"])
        return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: answer)))
    }

    private func json(_ object: [String: Any]) -> String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data(), as: UTF8.self)
    }
}

/// Runs `body` with the test MCP server listening on a loopback port, and stops it afterwards.
func withMCPTestServer<T: Sendable>(_ state: MCPTestServerState,
                                    _ body: @Sendable (URL) async throws -> T) async throws -> T {
    let (ports, portContinuation) = AsyncStream<Int>.makeStream()
    // Stopping by cancellation makes Hummingbird log errors that are none.
    var logger = Logger(label: "test-mcp")
    logger.logLevel = .critical
    let application = Application(
        responder: MCPTestResponder(state: state),
        configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0), serverName: "test-mcp"),
        onServerRunning: { channel in
            portContinuation.yield(channel.localAddress?.port ?? 0)
            portContinuation.finish()
        },
        logger: logger)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await application.runService() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0, let url = URL(string: "http://127.0.0.1:\(port)") else {
            group.cancelAll()
            throw CancellationError()
        }
        do {
            let result = try await body(url)
            group.cancelAll()
            return result
        } catch {
            group.cancelAll()
            throw error
        }
    }
}
