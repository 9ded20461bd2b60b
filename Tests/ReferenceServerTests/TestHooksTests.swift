import Foundation
import RiderReferenceServer
import Testing

@Suite("Test hooks are off unless asked for, and then loopback only")
struct TestHooksTests {
    static let hooksOff = ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))
    static let hooksOn = ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600), enableTestHooks: true)

    @Test("without enableTestHooks every /_test/ route is 404, and expiring tokens through it does nothing")
    func hooksOffByDefault() async throws {
        #expect(ReferenceServerConfiguration().enableTestHooks == false)
        try await TestServer.with(Self.hooksOff) { server in
            let token = try await server.login()
            for (method, path) in [("GET", "/_test/stats"), ("POST", "/_test/expire-access-tokens"),
                                   ("GET", "/_test/redirect?to=https://example.com/"), ("POST", "/_test/redirect?to=/auth/me"),
                                   ("GET", "/_test/echo-headers")] {
                let response = try await server.send(method, path)
                #expect(response.status == 404, "\(method) \(path)")
                #expect(response.header("Content-Type") == "application/problem+json", "\(method) \(path)")
                #expect(response.header("Location") == nil, "\(method) \(path): no open redirect")
            }
            #expect(try await server.get("/auth/me", token: token.accessToken).status == 200, "nothing expired")
        }
    }

    @Test("with enableTestHooks, a request whose Host is not loopback gets 421 and reaches no hook")
    func foreignHostRefused() async throws {
        try await TestServer.with(Self.hooksOn, over: .socket) { server in
            let port = try #require(server.baseURL.port)
            for host in ["evil.example", "evil.example:\(port)", "127.0.0.1.evil.example", "localhost.evil.example",
                         "192.168.1.10:\(port)", "[::2]:\(port)", "0.0.0.0", "127.0.0.1:http", "127.0.0.1:"] {
                for (method, path) in [("GET", "/_test/stats"), ("POST", "/_test/expire-access-tokens"), ("GET", "/users")] {
                    let response = try await RawHTTP.send(port: port, method: method, path: path, host: host)
                    #expect(response.status == 421, "\(method) \(path) with Host \(host)")
                }
            }
            #expect(await server.store.stats().requests == 0, "refused before being counted")
        }
    }

    @Test("with enableTestHooks, loopback Host values are answered: localhost, 127.x.x.x and [::1], with or without a port")
    func loopbackHostsAnswered() async throws {
        try await TestServer.with(Self.hooksOn, over: .socket) { server in
            let port = try #require(server.baseURL.port)
            for host in ["127.0.0.1:\(port)", "127.0.0.1", "127.10.20.30:\(port)", "localhost:\(port)", "LOCALHOST", "[::1]:\(port)", "[::1]"] {
                let response = try await RawHTTP.send(port: port, path: "/_test/stats", host: host)
                #expect(response.status == 200, "Host \(host)")
            }
        }
    }

    @Test("with the hooks off, a non-loopback Host is answered as before (the server may be bound elsewhere on purpose)")
    func foreignHostAllowedWithoutHooks() async throws {
        try await TestServer.with(Self.hooksOff, over: .socket) { server in
            let port = try #require(server.baseURL.port)
            #expect(try await RawHTTP.send(port: port, path: "/sports", host: "rider.example").status == 200)
            #expect(try await RawHTTP.send(port: port, path: "/_test/stats", host: "rider.example").status == 404)
        }
    }
}
