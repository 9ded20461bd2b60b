import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("Redirects: followed without leaking credentials")
struct RedirectMiddlewareTests {
    private func redirecting(_ stub: StubTransport, maximumRedirects: Int = 5) -> RequestPipeline {
        RequestPipeline(transport: stub, middlewares: [RedirectMiddleware(maximumRedirects: maximumRedirects)])
    }

    private func request(_ url: String, method: HTTPMethod = .get, body: String? = nil) throws -> HTTPRequest {
        HTTPRequest(method: method, url: try #require(URL(string: url)),
                    headers: ["Authorization": "Bearer secret-token", "Cookie": "a=b", "Proxy-Authorization": "Basic x",
                              "Accept": "application/json"],
                    body: body.map { Data($0.utf8) })
    }

    @Test("a same-origin redirect keeps Authorization")
    func sameOriginKeepsCredentials() async throws {
        let stub = StubTransport()
        stub.stub(.get, "/old", with: .status(307, headers: ["Location": "/new"]))
        stub.stub(.get, "/new", with: .successful(body: "ok"))

        let response = try await redirecting(stub).send(try request("https://api.example.test/old"))

        #expect(response.status == 200)
        let followed = try #require(stub.requests(.get, "/new").first)
        #expect(followed.headers["Authorization"] == "Bearer secret-token")
        #expect(followed.headers["Accept"] == "application/json")
    }

    @Test("a redirect to another host, port or scheme drops Authorization, Cookie and Proxy-Authorization",
          arguments: ["https://elsewhere.example.test/new", "https://api.example.test:8443/new", "https://API.example.test:443/new"])
    func crossOriginDropsCredentials(target: String) async throws {
        let stub = StubTransport()
        stub.stub(.get, "/old", with: .status(302, headers: ["Location": target]))
        stub.stub(.get, "/new", with: .successful(body: "ok"))

        _ = try await redirecting(stub).send(try request("https://api.example.test/old"))

        let followed = try #require(stub.requests(.get, "/new").first)
        let sameOrigin = target.hasPrefix("https://API.example.test:443")
        #expect((followed.headers["Authorization"] != nil) == sameOrigin, "\(target)")
        #expect((followed.headers["Cookie"] != nil) == sameOrigin, "\(target)")
        #expect((followed.headers["Proxy-Authorization"] != nil) == sameOrigin, "\(target)")
        #expect(followed.headers["Accept"] == "application/json")
    }

    @Test("https → http is never followed")
    func downgradeIsRefused() async throws {
        let stub = StubTransport()
        stub.stub(.get, "/old", with: .status(301, headers: ["Location": "http://api.example.test/new"]))

        await #expect(throws: RiderError.unsafeRedirect("http://api.example.test:80")) {
            try await redirecting(stub).send(try request("https://api.example.test/old"))
        }
        #expect(stub.count(.get, "/new") == 0)
    }

    @Test("303 turns a POST into a body-less GET; 307 and 308 keep method and body")
    func methodRewriting() async throws {
        for (status, method) in [(303, HTTPMethod.get), (307, .post), (308, .post)] {
            let stub = StubTransport()
            stub.stub(.post, "/old", with: .status(status, headers: ["Location": "/new"]))
            stub.stub(method, "/new", with: .successful(body: "ok"))

            _ = try await redirecting(stub)
                .send(try request("https://api.example.test/old", method: .post, body: "a=1"))

            let followed = try #require(stub.requests(method, "/new").first, "\(status)")
            #expect((followed.body != nil) == (method == .post), "\(status)")
        }
    }

    @Test("a redirect loop ends after the hop limit with a clear error")
    func loopIsCut() async throws {
        let stub = StubTransport()
        stub.stub(.get, "/loop", with: .status(302, headers: ["Location": "/loop"]))

        let cut = await #expect(throws: RiderError.self) {
            try await redirecting(stub, maximumRedirects: 3).send(try request("https://api.example.test/loop"))
        }
        #expect(cut?.code == .unsafeRedirect && cut?.localizedDescription.contains("after 3 redirects") == true, "\(String(describing: cut))")
        #expect(stub.count(.get, "/loop") == 4)
    }

    @Test("a 3xx without Location, and 304, are returned as they are")
    func notRedirects() async throws {
        let stub = StubTransport()
        stub.stub(.get, "/a", with: .status(302))
        stub.stub(.get, "/b", with: .status(304, headers: ["Location": "/c"]))
        #expect(try await redirecting(stub).send(try request("https://api.example.test/a")).status == 302)
        #expect(try await redirecting(stub).send(try request("https://api.example.test/b")).status == 304)
    }

    @Test("a request carrying credentials is never redirected: the target receives nothing", arguments: [301, 302, 303, 307, 308])
    func credentialRequestsStay(status: Int) async throws {
        let stub = StubTransport()
        stub.stub(.post, "/auth/token", with: .status(status, headers: ["Location": "https://api.example.test/steal"]))
        var tokenRequest = try request("https://api.example.test/auth/token", method: .post,
                                       body: "grant_type=password&password=SECRET")
        tokenRequest.followsRedirects = false

        let refusal = await #expect(throws: RiderError.self) { try await redirecting(stub).send(tokenRequest) }
        #expect(refusal?.code == .unsafeRedirect, "\(String(describing: refusal))")
        #expect(stub.requests.count == 1)
    }

    @Test("every redirect target passes the rules of a configured URL: plain http only to a loopback literal",
          arguments: ["http://attacker.example.test/x", "http://127.0.0.1.nip.io/x", "http://10.0.0.1/x"])
    func targetsAreChecked(target: String) async throws {
        let stub = StubTransport()
        stub.stub(.get, "/old", with: .status(302, headers: ["Location": target]))

        let refusal = await #expect(throws: RiderError.self) {
            try await redirecting(stub).send(try request("http://127.0.0.1:8080/old"))
        }
        #expect(refusal?.code == .unsafeRedirect, "\(String(describing: refusal))")
        #expect(stub.requests.count == 1)
    }

    @Test("a cross-origin 307 or 308 that would resend the body is refused; a same-origin one is followed",
          arguments: [307, 308])
    func bodiesStayAtHome(status: Int) async throws {
        let stub = StubTransport()
        stub.stub(.post, "/away", with: .status(status, headers: ["Location": "https://elsewhere.example.test/new"]))
        stub.stub(.post, "/here", with: .status(status, headers: ["Location": "/new"]))
        stub.stub(.post, "/new", with: .successful(body: "ok"))

        let refusal = await #expect(throws: RiderError.self) {
            try await redirecting(stub).send(try request("https://api.example.test/away",
                                                                              method: .post, body: "payload"))
        }
        #expect(refusal?.code == .unsafeRedirect, "\(String(describing: refusal))")
        #expect(stub.requests(.post, "/new").isEmpty)
        let followed = try await redirecting(stub)
            .send(try request("https://api.example.test/here", method: .post, body: "payload"))
        #expect(followed.status == 200)
    }
}
