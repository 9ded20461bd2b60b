import Foundation
import Logging
import MCP
import RiderDomain
import RiderKit
import RiderKitMCP
import Synchronization
import Testing

/// The MCP Swift SDK's `Client` over ``StreamableHTTPTransport``, against a streamable-HTTP MCP
/// server over loopback (`MCPTestServer.swift`): initialize, list the tools, call one.
@Suite(.timeLimit(.minutes(10))) struct StreamableHTTPTransportTests {
    /// Connects a client, lists the tools and calls `echo`, then disconnects.
    private func listAndCall(_ endpoint: URL, authorizer: (any MCPRequestAuthorizer)? = nil) async throws -> String {
        try await listAndCall(over: StreamableHTTPTransport(endpoint: endpoint.appending(path: "mcp"), authorizer: authorizer))
    }

    private func listAndCall(over transport: any Transport) async throws -> String {
        let client = Client(name: "riderkit-mcp-tests", version: "1.0")
        do {
            try await client.connect(transport: transport)
            let (tools, _) = try await client.listTools()
            #expect(tools.map(\.name) == ["echo"])
            let (content, isError) = try await client.callTool(name: "echo", arguments: ["text": "hello"])
            #expect(isError != true)
            await client.disconnect()
            guard case .text(let text, _, _) = content.first else { return "" }
            return text
        } catch {
            await client.disconnect()
            throw error
        }
    }

    @Test func aClientWorksOverEventStreamsCutInOddChunks() async throws {
        let state = MCPTestServerState()
        await state.configure { $0.answer = .eventStream; $0.chunkSize = 7 }
        let text = try await withMCPTestServer(state) { try await listAndCall($0) }
        #expect(text == "echo: hello")
        let requests = await state.requests
        // initialize, notifications/initialized, tools/list, tools/call, then DELETE.
        #expect(requests.map(\.jsonRPCMethod) == ["initialize", "notifications/initialized", "tools/list", "tools/call", nil])
        #expect(requests.allSatisfy { $0.method != "POST" || $0.accept == "application/json, text/event-stream" })
        // The session id and the negotiated version go with every request after initialize.
        #expect(requests.first?.sessionID == nil)
        #expect(requests.first?.protocolVersion == nil)
        #expect(requests.dropFirst().allSatisfy { $0.sessionID == state.sessionID })
        #expect(requests.dropFirst().allSatisfy { $0.protocolVersion == Version.latest })
        #expect(requests.last?.method == "DELETE")
    }

    @Test func aClientWorksOverJSONAnswers() async throws {
        let state = MCPTestServerState()
        await state.configure { $0.answer = .json }
        let text = try await withMCPTestServer(state) { try await listAndCall($0) }
        #expect(text == "echo: hello")
        #expect(await state.requests.last?.method == "DELETE")
    }

    @Test func aStreamThatEndsBeforeItsAnswerIsResumedWithLastEventID() async throws {
        let state = MCPTestServerState()
        await state.configure { $0.answer = .eventStream; $0.dropsCallStream = true; $0.chunkSize = 5 }
        let text = try await withMCPTestServer(state) { try await listAndCall($0) }
        #expect(text == "echo: hello")
        let resumed = await state.requests.filter { $0.method == "GET" }
        #expect(resumed.map(\.lastEventID) == ["2"])
        #expect(resumed.first?.accept == "text/event-stream")
        #expect(resumed.first?.sessionID == state.sessionID)
    }

    @Test func aRequestOutsideASessionGetsTheServersStatus() async throws {
        let state = MCPTestServerState()
        try await withMCPTestServer(state) { url in
            let transport = StreamableHTTPTransport(endpoint: url.appending(path: "mcp"))
            try await transport.connect()
            // `ping` before `initialize`: this server wants a session id and answers 400.
            let error = await #expect(throws: MCPTransportError.self) {
                try await transport.send(Data(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.utf8))
            }
            #expect(error?.code == .unexpectedStatus(400))
            await transport.disconnect()
        }
    }

    @Test func sendingBeforeConnectingIsRefused() async throws {
        let transport = StreamableHTTPTransport(endpoint: URL(string: "http://127.0.0.1:9/mcp")!)
        let error = await #expect(throws: MCPTransportError.self) {
            try await transport.send(Data("{}".utf8))
        }
        #expect(error?.code == .notConnected)
    }

    @Test func aRiderKitSessionAuthorizesEachRequestAndRenewsOnceAfter401() async throws {
        let state = MCPTestServerState()
        await state.configure {
            $0.answer = .eventStream
            $0.requiredToken = "token-2"
            $0.refresh = (accepts: "refresh-1", issues: "token-2")
        }
        let text = try await withMCPTestServer(state) { url in
            let rider = try await Self.signedInRider(at: url, accessToken: "token-1", refreshToken: "refresh-1")
            return try await listAndCall(url, authorizer: RiderSessionAuthorizer(rider))
        }
        #expect(text == "echo: hello")
        let requests = await state.requests.filter { $0.path == "/mcp" }
        // The first initialize met a 401 with the old token; the renewal's one refresh, then
        // the new token on every request, the DELETE too.
        #expect(requests.first?.authorization == "Bearer token-1")
        #expect(requests.dropFirst().allSatisfy { $0.authorization == "Bearer token-2" })
        #expect(requests.map(\.jsonRPCMethod).prefix(2) == ["initialize", "initialize"])
        #expect(await state.tokenRequests == 1)
    }

    @Test func aDPoPBoundSessionSignsAProofForEachRequest() async throws {
        let state = MCPTestServerState()
        await state.configure { $0.answer = .eventStream }
        let endpoint = try await withMCPTestServer(state) { url in
            // A P-256 private key's 32 bytes, as the vault keeps a session's proof key.
            let rider = try await Self.signedInRider(at: url, accessToken: "token-1", refreshToken: nil,
                                                     proofKey: Data((1...32).map { UInt8($0) }))
            _ = try await listAndCall(url, authorizer: RiderSessionAuthorizer(rider))
            return url.appending(path: "mcp").absoluteString
        }
        let requests = await state.requests
        #expect(!requests.isEmpty)
        #expect(requests.allSatisfy { $0.authorization == "DPoP token-1" })
        for request in requests {
            let claims = try #require(request.dpop.flatMap(Self.payload(ofJWT:)))
            #expect(claims["htm"] as? String == request.method)
            #expect(claims["htu"] as? String == endpoint)
            #expect(claims["ath"] is String)
        }
        #expect(Set(requests.compactMap { Self.payload(ofJWT: $0.dpop ?? "")?["jti"] as? String }).count == requests.count)
    }

    private static func payload(ofJWT jwt: String) -> [String: Any]? {
        let parts = jwt.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    @Test func aLoopbackServerIsReachedWithoutTheProxy() async throws {
        let state = MCPTestServerState()
        await state.configure { $0.answer = .json }
        let text = try await withMCPTestServer(state) { url in
            // Nothing listens at the proxy's address: only a direct connection gets an answer.
            var configuration = StreamableHTTPTransport.Configuration()
            configuration.proxies = ProxyEnvironment(environment: ["http_proxy": "http://192.0.2.1:3128",
                                                                   "all_proxy": "socks5://192.0.2.1:1080"])
            return try await listAndCall(over: StreamableHTTPTransport(endpoint: url.appending(path: "mcp"),
                                                                       configuration: configuration))
        }
        #expect(text == "echo: hello")
    }

    @Test func aProxyVariableThatCannotBeReadIsRefused() async throws {
        var configuration = StreamableHTTPTransport.Configuration()
        configuration.proxies = ProxyEnvironment(environment: ["https_proxy": "ftp://proxy.example:21"])
        let transport = StreamableHTTPTransport(endpoint: URL(string: "https://mcp.example/mcp")!,
                                                configuration: configuration)
        let error = await #expect(throws: RiderError.self) { try await transport.connect() }
        #expect(error?.code == .invalidConfiguration)
        #expect(error.map { "\($0)" }?.contains("proxy.example") == false)
    }

    @Test func theTokenNeverGoesToAnotherOrigin() async throws {
        let state = MCPTestServerState()
        await state.configure { $0.answer = .json }
        try await withMCPTestServer(state) { url in
            // The session belongs to another origin (another port on the same host).
            let other = URL(string: "http://127.0.0.1:9")!
            let rider = try await Self.signedInRider(at: other, accessToken: "token-1", refreshToken: nil)
            _ = try await listAndCall(url, authorizer: RiderSessionAuthorizer(rider))
        }
        #expect(await state.requests.allSatisfy { $0.authorization == nil })
    }

    @Test func aRedirectIsNeverFollowed() async throws {
        let state = MCPTestServerState()
        await state.configure { $0.answer = .json }
        try await withMCPTestServer(state) { url in
            let rider = try await Self.signedInRider(at: url, accessToken: "token-1", refreshToken: nil)
            let authorized = StreamableHTTPTransport(endpoint: url.appending(path: "moved"),
                                                     authorizer: RiderSessionAuthorizer(rider))
            try await authorized.connect()
            let refusal = await #expect(throws: RiderError.self) {
                try await authorized.send(Data(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#.utf8))
            }
            #expect(refusal?.code == .unsafeRedirect)
            await authorized.disconnect()
            let plain = StreamableHTTPTransport(endpoint: url.appending(path: "moved"))
            try await plain.connect()
            let error = await #expect(throws: MCPTransportError.self) {
                try await plain.send(Data(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#.utf8))
            }
            #expect(error?.code == .unexpectedStatus(307))
            await plain.disconnect()
        }
        #expect(await state.requests.map(\.path) == ["/moved", "/moved"])
    }

    @Test func insufficientScopeIsATypedErrorWithTheChallenge() async throws {
        let state = MCPTestServerState()
        await state.configure { $0.answer = .eventStream; $0.callNeedsScope = true }
        try await withMCPTestServer(state) { url in
            let transport = StreamableHTTPTransport(endpoint: url.appending(path: "mcp"))
            let client = Client(name: "riderkit-mcp-tests", version: "1.0")
            try await client.connect(transport: transport)
            let error = await #expect(throws: MCPTransportError.self) {
                _ = try await client.callTool(name: "echo", arguments: ["text": "hello"])
            }
            #expect(error?.code == .insufficientScope)
            #expect(error?.insufficientScope?.scope == "mcp:tools mcp:write")
            #expect(error?.insufficientScope?.resourceMetadata?.path == "/.well-known/oauth-protected-resource/mcp")
            await client.disconnect()
        }
    }

    @Test func anAuthorizerThatStepsUpGetsTheMessageSentOnceMore() async throws {
        let state = MCPTestServerState()
        await state.configure { $0.answer = .eventStream; $0.callNeedsScope = true }
        let text = try await withMCPTestServer(state) { url in
            // The step-up "signs in again": the server grants the call from then on.
            let authorizer = SteppingUp(state: state, grants: true)
            let text = try await listAndCall(url, authorizer: authorizer)
            #expect(authorizer.asked.withLock { $0 } == ["mcp:tools mcp:write"])
            return text
        }
        #expect(text == "echo: hello")
        #expect(await state.requests.filter { $0.jsonRPCMethod == "tools/call" }.count == 2)
    }

    @Test func aStepUpIsTriedOncePerMessage() async throws {
        let state = MCPTestServerState()
        await state.configure { $0.answer = .json; $0.callNeedsScope = true }
        try await withMCPTestServer(state) { url in
            // Claims success every time, yet the server keeps refusing.
            let authorizer = SteppingUp(state: state, grants: false)
            let client = Client(name: "riderkit-mcp-tests", version: "1.0")
            try await client.connect(transport: StreamableHTTPTransport(endpoint: url.appending(path: "mcp"),
                                                                        authorizer: authorizer))
            let error = await #expect(throws: MCPTransportError.self) {
                _ = try await client.callTool(name: "echo", arguments: ["text": "hello"])
            }
            #expect(error?.code == .insufficientScope)
            #expect(authorizer.asked.withLock { $0.count } == 1)
            await client.disconnect()
        }
        #expect(await state.requests.filter { $0.jsonRPCMethod == "tools/call" }.count == 2)
    }

    @Test func withoutCredentialsA401IsUnauthorized() async throws {
        let state = MCPTestServerState()
        await state.configure { $0.requiredToken = "token-1" }
        try await withMCPTestServer(state) { url in
            let client = Client(name: "riderkit-mcp-tests", version: "1.0")
            let error = await #expect(throws: MCPTransportError.self) {
                try await client.connect(transport: StreamableHTTPTransport(endpoint: url.appending(path: "mcp")))
            }
            #expect(error?.code == .unauthorized)
            await client.disconnect()
        }
    }

    @Test func theServersOwnStreamIsReadWhenAsked() async throws {
        let state = MCPTestServerState()
        await state.configure { $0.answer = .json; $0.offersServerStream = true }
        try await withMCPTestServer(state) { url in
            var configuration = StreamableHTTPTransport.Configuration()
            configuration.listensForServerMessages = true
            let transport = StreamableHTTPTransport(endpoint: url.appending(path: "mcp"), configuration: configuration)
            try await transport.connect()
            try await transport.send(Data(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#.utf8))
            var messages = await transport.receive().makeAsyncIterator()
            let answer = try await messages.next().map { String(decoding: $0, as: UTF8.self) }
            let pushed = try await messages.next().map { String(decoding: $0, as: UTF8.self) }
            #expect(answer?.contains(#""id":1"#) == true)
            #expect(pushed == #"{"jsonrpc":"2.0","method":"notifications\/tools\/list_changed"}"#)
            await transport.disconnect()
        }
        let stream = await state.requests.filter { $0.method == "GET" }.first
        #expect(stream?.accept == "text/event-stream")
        #expect(stream?.sessionID == state.sessionID)
    }

    @Test func a404InASessionMeansTheSessionIsOver() async throws {
        let state = MCPTestServerState()
        await state.configure { $0.answer = .json; $0.forgetsSessions = true }
        try await withMCPTestServer(state) { url in
            let transport = StreamableHTTPTransport(endpoint: url.appending(path: "mcp"))
            try await transport.connect()
            try await transport.send(Data(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#.utf8))
            #expect(await transport.sessionID == state.sessionID)
            let error = await #expect(throws: MCPTransportError.self) {
                try await transport.send(Data(#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#.utf8))
            }
            #expect(error?.code == .sessionExpired)
            #expect(await transport.sessionID == nil)
            await transport.disconnect()
        }
    }

    @Test func theSDKsOwnTransportWorksWithRiderKitsHTTPClientAuthorizer() async throws {
        let state = MCPTestServerState()
        await state.configure {
            $0.answer = .json   // the SDK's transport reads no event stream on Linux
            $0.requiredToken = "token-2"
            $0.refresh = (accepts: "refresh-1", issues: "token-2")
        }
        let text = try await withMCPTestServer(state) { url in
            let rider = try await Self.signedInRider(at: url, accessToken: "token-1", refreshToken: "refresh-1")
            let transport = HTTPClientTransport(endpoint: url.appending(path: "mcp"), streaming: false,
                                                authorizer: RiderHTTPClientAuthorizer(rider))
            return try await listAndCall(over: transport)
        }
        #expect(text == "echo: hello")
        let requests = await state.requests.filter { $0.path == "/mcp" }
        #expect(requests.first?.authorization == "Bearer token-1")
        #expect(requests.dropFirst().allSatisfy { $0.authorization == "Bearer token-2" })
        #expect(await state.tokenRequests == 1)
    }

    @Test func concurrentRequestsEachGetTheirAnswer() async throws {
        let state = MCPTestServerState()
        await state.configure { $0.answer = .eventStream; $0.chunkSize = 11 }
        let texts = try await withMCPTestServer(state) { url in
            let client = Client(name: "riderkit-mcp-tests", version: "1.0")
            try await client.connect(transport: StreamableHTTPTransport(endpoint: url.appending(path: "mcp")))
            let texts = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        let (content, _) = try await client.callTool(name: "echo", arguments: ["text": .string("\(index)")])
                        guard case .text(let text, _, _) = content.first else { return "" }
                        return text
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            await client.disconnect()
            return texts
        }
        #expect(Set(texts) == Set((0..<8).map { "echo: \($0)" }))
    }

    @Test func nothingLoggedHoldsATokenOrTheSessionID() async throws {
        let state = MCPTestServerState()
        await state.configure {
            $0.answer = .eventStream
            $0.dropsCallStream = true
            $0.requiredToken = "token-2"
            $0.refresh = (accepts: "refresh-1", issues: "token-2")
        }
        let log = CapturedLog()
        try await withMCPTestServer(state) { url in
            let rider = try await Self.signedInRider(at: url, accessToken: "token-1", refreshToken: "refresh-1")
            let transport = StreamableHTTPTransport(endpoint: url.appending(path: "mcp"),
                                                    authorizer: RiderSessionAuthorizer(rider), logger: log.logger)
            _ = try await listAndCall(over: transport)
        }
        let lines = log.lines
        #expect(!lines.isEmpty)
        for secret in ["token-1", "token-2", "refresh-1", state.sessionID] {
            #expect(!lines.contains { $0.contains(secret) }, "\(secret) logged")
        }
    }

    @Test func aSessionIDOtherThanVisibleASCIIIsRefused() async throws {
        let state = MCPTestServerState()
        await state.configure { $0.answer = .json; $0.issuedSessionID = "two words" }
        try await withMCPTestServer(state) { url in
            let client = Client(name: "riderkit-mcp-tests", version: "1.0")
            let error = await #expect(throws: MCPTransportError.self) {
                try await client.connect(transport: StreamableHTTPTransport(endpoint: url.appending(path: "mcp")))
            }
            #expect(error?.code == .malformedResponse)
            await client.disconnect()
        }
    }

    @Test func anEventLargerThanTheBoundFailsItsRequest() async throws {
        let state = MCPTestServerState()
        await state.configure { $0.answer = .eventStream }
        try await withMCPTestServer(state) { url in
            var configuration = StreamableHTTPTransport.Configuration()
            configuration.maximumEventSize = 64
            let transport = StreamableHTTPTransport(endpoint: url.appending(path: "mcp"), configuration: configuration)
            try await transport.connect()
            let error = await #expect(throws: MCPTransportError.self) {
                try await transport.send(Data(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#.utf8))
            }
            #expect(error?.code == .malformedResponse)
            #expect(error?.message.contains("larger than 64 bytes") == true)
            await transport.disconnect()
        }
    }

    /// RiderKit pointed at `url` (whose `/auth/token` the test server answers), with a session in
    /// its vault as a sign-in would have left it.
    private static func signedInRider(at url: URL, accessToken: String, refreshToken: String?,
                                      proofKey: Data? = nil) async throws -> RiderKit {
        var api = try APIConfiguration(baseURL: url, clientID: "riderkit-mcp-tests", clientAuthentication: .none,
                                       requestTimeout: 30)
        if proofKey == nil { api.dpop = .off }
        let rider = try RiderKit.live(configuration: RiderKit.Configuration(
            api: api, vault: .memory, cache: CacheConfiguration(storage: .memory), proxies: .none))
        var session = Session(
            accessToken: accessToken, refreshToken: refreshToken, expiresAt: Date().addingTimeInterval(3600),
            userID: UserID("u_000001"), role: nil, tokenType: proofKey == nil ? "Bearer" : "DPoP", issuedAt: Date())
        session.proofKey = proofKey
        try await rider.sessions.establish(session)
        return rider
    }
}

/// An authorizer that adds nothing and, asked to step up, says it did (and, when it `grants`,
/// makes the test server grant the call from then on).
final class SteppingUp: MCPRequestAuthorizer {
    let state: MCPTestServerState
    let grants: Bool
    let asked = Mutex<[String?]>([])

    init(state: MCPTestServerState, grants: Bool) {
        self.state = state
        self.grants = grants
    }

    func authorize(_ request: RiderDomain.HTTPRequest,
                   send: @Sendable (RiderDomain.HTTPRequest) async throws -> RiderDomain.HTTPResponse) async throws
        -> RiderDomain.HTTPResponse {
        try await send(request)
    }

    func stepUp(for insufficientScope: MCPTransportError.InsufficientScope) async throws -> Bool {
        asked.withLock { $0.append(insufficientScope.scope) }
        if grants { await state.configure { $0.callNeedsScope = false } }
        return true
    }
}

/// Every line logged through its logger, message and metadata, at trace level.
final class CapturedLog: LogHandler, Sendable {
    private let captured = Mutex<[String]>([])
    var lines: [String] { captured.withLock { $0 } }
    var logger: Logger { Logger(label: "captured") { _ in self } }

    var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }
    var logLevel: Logger.Level {
        get { .trace }
        set {}
    }
    subscript(metadataKey _: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }
    func log(event: LogEvent) {
        captured.withLock { $0.append("\(event.level) \(event.message) \(event.metadata ?? [:])") }
    }
}
