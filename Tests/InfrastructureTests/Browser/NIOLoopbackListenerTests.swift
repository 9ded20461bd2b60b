import Foundation
import RiderDomain
import RiderInfrastructure
import Testing

/// The loopback redirect endpoint over real sockets, with a real HTTP client as the browser.
@Suite("Loopback listener")
struct NIOLoopbackListenerTests {
    static func get(_ url: URL, method: HTTPMethod = .get, client: AsyncHTTPClientTransport) async throws -> HTTPResponse {
        try await client.send(HTTPRequest(method: method, url: url, followsRedirects: false))
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

    @Test("another path gets 404 and another method 405 with Allow, and neither ends the wait; the GET is handed over with its query and answered with the outcome page")
    func oneRedirect() async throws {
        let client = AsyncHTTPClientTransport()
        let endpoint = try await NIOLoopbackListener().listen(path: "/callback")
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

    @Test("a failed sign-in is shown as such (400), and the wait can be cancelled without a redirect")
    func failureAndCancel() async throws {
        let client = AsyncHTTPClientTransport()
        let endpoint = try await NIOLoopbackListener().listen(path: "/cb")
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
