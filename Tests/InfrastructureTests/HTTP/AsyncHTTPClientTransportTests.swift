import Foundation
import RiderDomain
import RiderInfrastructure
import Testing

/// What only the AsyncHTTPClient transport does itself (URLSession leaves proxies to curl).
@Suite("AsyncHTTPClient transport: proxies from the environment")
struct AsyncHTTPClientTransportTests {
    @Test("a request to another host goes through http_proxy, with the proxy's credentials")
    func throughHTTPProxy() async throws {
        let proxy = try EchoingForwardProxy()
        let proxies = ProxyEnvironment(environment: ["http_proxy": "http://carol:s%40fe@127.0.0.1:\(proxy.port)"])
        let transport = AsyncHTTPClientTransport(configuration: .init(timeout: 60, proxies: proxies))
        let url = try #require(URL(string: "http://rider.example/auth/me?q=1"))

        let response = try await transport.send(HTTPRequest(method: .get, url: url, headers: ["Authorization": "Bearer t"]))

        #expect(response.status == 200)
        let tunnel = try #require(proxy.received.first)
        #expect(tunnel.hasPrefix("CONNECT rider.example:80 HTTP/1.1\r\n"))
        let expected = "Basic " + Data("carol:s@fe".utf8).base64EncodedString()
        #expect(tunnel.lowercased().contains("proxy-authorization: \(expected.lowercased())"))
        #expect(!tunnel.lowercased().contains("bearer"), "the request's own credentials are not shown to the proxy")
        #expect(String(decoding: response.body, as: UTF8.self).hasPrefix("GET /auth/me?q=1 HTTP/1.1\r\n"))
    }

    @Test("no_proxy and loopback addresses bypass the proxy")
    func bypass() async throws {
        let proxies = ProxyEnvironment(environment: ["https_proxy": "proxy.corp:3128", "http_proxy": "proxy.corp:3128",
                                                     "no_proxy": ".internal.example, 10.0.0.7"])
        let through = ProxyEnvironment.Route.http(host: "proxy.corp", port: 3128, username: nil, password: nil)

        #expect(proxies.route(for: try #require(URL(string: "https://api.example.com/x"))) == through)
        #expect(proxies.route(for: try #require(URL(string: "http://api.example.com/x"))) == through)
        #expect(proxies.route(for: try #require(URL(string: "https://api.internal.example/x"))) == .direct)
        #expect(proxies.route(for: try #require(URL(string: "https://internal.example/x"))) == .direct)
        #expect(proxies.route(for: try #require(URL(string: "http://10.0.0.7:8080/x"))) == .direct)
        #expect(proxies.route(for: try #require(URL(string: "http://127.0.0.1:8080/x"))) == .direct)
        #expect(proxies.route(for: try #require(URL(string: "http://localhost:8080/x"))) == .direct)
        #expect(proxies.route(for: try #require(URL(string: "http://[::1]:8080/x"))) == .direct)
        #expect(ProxyEnvironment(environment: ["http_proxy": "p:1", "NO_PROXY": "*"])
            .route(for: try #require(URL(string: "http://api.example.com/x"))) == .direct)
    }

    @Test("curl's rules: HTTP_PROXY in capitals is ignored, all_proxy is the fallback, socks5 is understood")
    func curlRules() throws {
        let url = try #require(URL(string: "http://api.example.com/x"))
        #expect(ProxyEnvironment(environment: ["HTTP_PROXY": "http://p:1"]).route(for: url) == .direct)
        #expect(ProxyEnvironment(environment: ["ALL_PROXY": "socks5://s:9050"]).route(for: url) == .socks5(host: "s", port: 9050))
        #expect(ProxyEnvironment(environment: ["all_proxy": "http://a:2", "http_proxy": "http://h:3"]).route(for: url)
            == .http(host: "h", port: 3, username: nil, password: nil))
        #expect(ProxyEnvironment(environment: ["http_proxy": "h"]).route(for: url)
            == .http(host: "h", port: 1080, username: nil, password: nil))
        #expect(ProxyEnvironment(environment: ["http_proxy": ""]).route(for: url) == .direct)
    }

    @Test("an unusable proxy variable fails every request clearly, naming the variable and not its password")
    func unusableProxy() async throws {
        let proxies = ProxyEnvironment(environment: ["https_proxy": "gopher://bob:hunter2@proxy:70"])
        #expect(proxies.problem?.contains("https_proxy") == true)
        let transport = AsyncHTTPClientTransport(configuration: .init(timeout: 60, proxies: proxies))
        let url = try #require(URL(string: "https://api.example.com/auth/me"))

        await #expect {
            _ = try await transport.send(HTTPRequest(method: .get, url: url))
        } throws: { error in
            guard let riderError = error as? RiderError, riderError.code == .invalidConfiguration, case let message = riderError.detail ?? "" else { return false }
            return message.contains("https_proxy") && !message.contains("hunter2") && !"\(error)".contains("hunter2")
        }
    }

    @Test("a proxy's password never shows in a description or a dump")
    func proxyPasswordRedacted() {
        let proxies = ProxyEnvironment(environment: ["http_proxy": "http://bob:hunter2@proxy:3128"])
        var dumped = ""
        dump(proxies, to: &dumped)
        #expect(!dumped.contains("hunter2"))
        #expect(!"\(proxies)".contains("hunter2"))
        #expect(!String(reflecting: proxies).contains("hunter2"))
        #expect("\(proxies.http)" == "http proxy proxy:3128")
    }

    @Test("after shutdown a request fails as a configuration error, whether its client existed or not")
    func afterShutdown() async throws {
        let proxy = try EchoingForwardProxy()
        let proxies = ProxyEnvironment(environment: ["http_proxy": "http://127.0.0.1:\(proxy.port)"])
        let transport = AsyncHTTPClientTransport(configuration: .init(timeout: 60, proxies: proxies))
        let viaProxy = try #require(URL(string: "http://rider.example/auth/me"))
        _ = try await transport.send(HTTPRequest(method: .get, url: viaProxy))

        await transport.shutdown()

        for url in [viaProxy, try #require(URL(string: "http://127.0.0.1:9/auth/me"))] {
            await #expect {
                _ = try await transport.send(HTTPRequest(method: .get, url: url))
            } throws: { error in
                guard let riderError = error as? RiderError, riderError.code == .invalidConfiguration, case let message = riderError.detail ?? "" else { return false }
                return message.contains("shut down")
            }
        }
    }
}
