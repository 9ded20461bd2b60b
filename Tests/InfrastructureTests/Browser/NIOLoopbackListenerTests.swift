import Foundation
import RiderDomain
import RiderInfrastructure
import Testing
import TestSupport

/// The loopback redirect endpoint over real sockets, with a real HTTP client as the browser.
@Suite("Loopback listener")
struct NIOLoopbackListenerTests {
    /// A client that waits as a browser does: the listener holds the browser's request until the
    /// sign-in ends, which under the whole suite on two cores can be longer than the transport's
    /// 15 s default (its read timeout as well as the request's), and no test here is about time.
    static func browser() -> AsyncHTTPClientTransport {
        AsyncHTTPClientTransport(configuration: .init(timeout: 120))
    }

    /// The browser's request, with the same generous timeout.
    static func get(_ url: URL, method: HTTPMethod = .get, client: AsyncHTTPClientTransport) async throws -> HTTPResponse {
        try await client.send(HTTPRequest(method: method, url: url, timeout: 120, followsRedirects: false))
    }

    @Test("listens on 127.0.0.1 at a port the system picks, with the path given")
    func redirectURI() async throws {
        let endpoint = try await NIOLoopbackListener().listen(path: "/callback")
        defer { Task { await endpoint.finish(with: RedirectPage(succeeded: false, title: "t", message: "m")) } }
        #expect(endpoint.redirectURI.scheme == "http")
        #expect(endpoint.redirectURI.host == "127.0.0.1")
        #expect((endpoint.redirectURI.port ?? 0) > 0)
        #expect(endpoint.redirectURI.path == "/callback")
    }

    /// A request written by hand, so its `Host` can be anything (or missing); the answer's status
    /// and head once the listener closes the connection. On a thread of its own: a blocking read
    /// on the concurrency pool's few threads would starve the listener's other side.
    static func raw(_ port: Int, _ target: String, host: String?, method: String = "GET") async -> (status: Int, head: String) {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: rawOnThisThread(port, target, host: host, method: method)) }.start()
        }
    }

    private static func rawOnThisThread(_ port: Int, _ target: String, host: String?,
                                        method: String) -> (status: Int, head: String) {
        guard let socket = LoopbackSocket.connect(port: UInt16(port)) else { return (0, "") }
        defer { close(socket) }
        LoopbackSocket.setReceiveTimeout(socket, seconds: 30)
        LoopbackSocket.write(socket, Array("\(method) \(target) HTTP/1.1\r\n\(host.map { "Host: \($0)\r\n" } ?? "")\r\n".utf8))
        let answer = String(decoding: LoopbackSocket.readToEnd(socket), as: UTF8.self)
        let head = answer.components(separatedBy: "\r\n\r\n").first ?? ""
        let status = head.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, head)
    }

    /// A header's value in a raw answer's head.
    static func header(_ name: String, in head: String) -> String? {
        head.components(separatedBy: "\r\n").dropFirst()
            .first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
            .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
    }

    static let page = URL(string: "https://login.example.test/authorize?state=right&code_challenge=abc")!

    /// The check the sign-in hands the listener: `state=right`, as BrowserAuthorization checks it.
    static let rightState: @Sendable (URL) -> Bool = { url in
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.filter { $0.name == "state" }
            .map(\.value) == ["right"]
    }

    @Test("another path gets 404 and another method 405 with Allow, and neither ends the wait; the answer is handed over with its query and answered with the outcome page")
    func oneRedirect() async throws {
        let client = Self.browser()
        let endpoint = try await NIOLoopbackListener().listen(path: "/callback")
        _ = try await endpoint.offer(Self.page, acceptingAnswers: { _ in true })
        let base = endpoint.redirectURI

        let elsewhere = try await Self.get(try #require(URL(string: "/favicon.ico", relativeTo: base)?.absoluteURL), client: client)
        #expect(elsewhere.status == 404)
        let posted = try await Self.get(base, method: .post, client: client)
        #expect(posted.status == 405)
        #expect(posted.headers["Allow"] == "GET")

        let browser = Task { try await Self.get(try #require(URL(string: base.absoluteString + "?code=c&state=s%20t")),
                                                client: client) }
        let redirect = try await endpoint.redirect()
        #expect(redirect.absoluteString == base.absoluteString + "?code=c&state=s%20t")
        await endpoint.finish(with: RedirectPage(succeeded: true, title: "Signed in <b>", message: "Close & return."))

        let page = try await browser.value
        #expect(page.status == 200)
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(html.contains("Signed in &lt;b&gt;"), "the texts are escaped")
        #expect(html.contains("Close &amp; return."))
        #expect(page.headers["Referrer-Policy"] == "no-referrer", "the address held the code")
        #expect(page.headers["Cache-Control"] == "no-store")

        // Finished: the port is closed, so nothing more is received there.
        await #expect(throws: (any Error).self) { try await Self.get(base, client: client) }
        await client.shutdown()
    }

    @Test("a redirect without the sign-in's state gets 400 and does not end the wait; the answer then does, and is what the wait hands over")
    func wrongStateKeepsWaiting() async throws {
        let endpoint = try await NIOLoopbackListener().listen(path: "/callback")
        _ = try await endpoint.offer(Self.page, acceptingAnswers: Self.rightState)
        let port = try #require(endpoint.redirectURI.port)
        let host = "127.0.0.1:\(port)"
        let waiting = Task { try await endpoint.redirect() }

        for target in ["/callback?state=nope", "/callback?code=stolen", "/callback", "/callback?state=right&state=right",
                       "/callback?error=access_denied&state=nope"] {
            let answer = await Self.raw(port, target, host: host)
            #expect(answer.status == 400, "\(target): \(answer.head)")
        }
        let browser = Task { await Self.raw(port, "/callback?code=c&state=right", host: host) }
        #expect(try await waiting.value.absoluteString == "http://\(host)/callback?code=c&state=right")
        await endpoint.finish(with: RedirectPage(succeeded: true, title: "Signed in", message: "m"))
        #expect(await browser.value.status == 200)
    }

    @Test("a request not addressed to 127.0.0.1:<port> (DNS rebinding, another port, no Host, two) gets 400 on every path and ends nothing",
          arguments: ["evil.example:PORT", "localhost:PORT", "127.0.0.1", "127.0.0.1:1", "127.0.0.1.nip.io:PORT", nil,
                      "127.0.0.1:PORT\r\nHost: 127.0.0.1:PORT"])
    func hostChecked(host: String?) async throws {
        let endpoint = try await NIOLoopbackListener().listen(path: "/callback")
        let start = try await endpoint.offer(Self.page, acceptingAnswers: Self.rightState)
        let port = try #require(endpoint.redirectURI.port)
        let host = host?.replacingOccurrences(of: "PORT", with: String(port))
        let waiting = Task { try await endpoint.redirect() }

        #expect(await Self.raw(port, "/callback?code=stolen&state=right", host: host).status == 400)
        #expect(await Self.raw(port, start.path, host: host).status == 400, "the one-time address is not spent")
        #expect(await Self.raw(port, "/elsewhere", host: host).status == 400)

        // The browser, addressing the listener as the redirect URI names it, still gets through.
        #expect(await Self.raw(port, start.path, host: "127.0.0.1:\(port)").status == 303)
        let browser = Task { await Self.raw(port, "/callback?code=c&state=right", host: "[::1]:\(port)") }
        #expect(try await waiting.value.query == "code=c&state=right")
        await endpoint.finish(with: RedirectPage(succeeded: true, title: "Signed in", message: "m"))
        #expect(await browser.value.status == 200)
    }

    @Test("the one-time address sends the browser on to the page once (303, not cacheable, no referrer); after that it gets 410 and the wait ends refused; a guessed one gets 404")
    func oneTimeAddress() async throws {
        let endpoint = try await NIOLoopbackListener().listen(path: "/callback")
        let start = try await endpoint.offer(Self.page, acceptingAnswers: Self.rightState)
        let port = try #require(endpoint.redirectURI.port)
        let host = "127.0.0.1:\(port)"
        #expect(start.host == "127.0.0.1" && start.port == port && start.query == nil)
        #expect(start.path.hasPrefix("/start/"))
        #expect(!start.absoluteString.contains("right") && !start.absoluteString.contains("abc"))
        let waiting = Task { try await endpoint.redirect() }

        #expect(await Self.raw(port, "/start/guessed", host: host).status == 404)
        #expect(await Self.raw(port, start.path + "x", host: host).status == 404)
        #expect(await Self.raw(port, start.path, host: host, method: "POST").status == 405)
        let first = await Self.raw(port, start.path, host: host)
        #expect(first.status == 303, "\(first.head)")
        #expect(Self.header("Location", in: first.head) == Self.page.absoluteString)
        #expect(Self.header("Cache-Control", in: first.head) == "no-store")
        #expect(Self.header("Referrer-Policy", in: first.head) == "no-referrer")

        let second = await Self.raw(port, start.path, host: host)
        #expect(second.status == 410, "\(second.head)")
        #expect(Self.header("Location", in: second.head) == nil)
        let thrown = await #expect(throws: RiderError.self) { try await waiting.value }
        #expect(thrown?.code == .untrustedAuthorizationResponse)
        #expect(thrown?.message.contains("asked for twice") == true)
        await endpoint.finish(with: RedirectPage(succeeded: false, title: "t", message: "m"))
    }

    @Test("before a page is offered nothing is an answer, and no one-time address exists")
    func nothingOffered() async throws {
        let endpoint = try await NIOLoopbackListener().listen(path: "/callback")
        let port = try #require(endpoint.redirectURI.port)
        #expect(await Self.raw(port, "/callback?code=c&state=right", host: "127.0.0.1:\(port)").status == 400)
        #expect(await Self.raw(port, "/start/x", host: "127.0.0.1:\(port)").status == 404)
        await endpoint.finish(with: RedirectPage(succeeded: false, title: "t", message: "m"))
    }

    @Test("each offer's one-time address is new, with 256 random bits (43 base64url characters)")
    func randomAddress() async throws {
        let endpoint = try await NIOLoopbackListener().listen(path: "/callback")
        let addresses = try await [endpoint.offer(Self.page, acceptingAnswers: { _ in false }),
                                   endpoint.offer(Self.page, acceptingAnswers: { _ in false })]
        await endpoint.finish(with: RedirectPage(succeeded: false, title: "t", message: "m"))
        let tokens = addresses.map { $0.lastPathComponent }
        #expect(tokens[0] != tokens[1])
        #expect(tokens.allSatisfy { $0.count == 43 && $0.allSatisfy { $0.isLetter || $0.isNumber || "-_".contains($0) } })
    }

    @Test("a failed sign-in is shown as such (400), and the wait can be cancelled without a redirect")
    func failureAndCancel() async throws {
        let client = Self.browser()
        let endpoint = try await NIOLoopbackListener().listen(path: "/cb")
        _ = try await endpoint.offer(Self.page, acceptingAnswers: { _ in true })
        let waiting = Task { try await endpoint.redirect() }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }

        // Still listening after the cancelled wait, until finish.
        let browser = Task { try await Self.get(endpoint.redirectURI, client: client) }
        _ = try await endpoint.redirect()
        await endpoint.finish(with: RedirectPage(succeeded: false, title: "Refused", message: "state"))
        #expect(try await browser.value.status == 400)
        await client.shutdown()
    }

    @Test("SHA-256 of RFC 7636 Appendix B's verifier is its challenge; random bytes are as many as asked and differ")
    func cryptography() throws {
        // Through the port, as the use case sees it; the adapter itself is package API.
        let crypto: any SignInCryptography = SwiftCryptoSignInCryptography()
        let digest = crypto.sha256(Data("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk".utf8)).base64EncodedString()
        #expect(digest == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw+cM=")
        let first = crypto.randomBytes(count: 16)
        #expect(first.count == 16)
        #expect(first != crypto.randomBytes(count: 16))
    }
}
