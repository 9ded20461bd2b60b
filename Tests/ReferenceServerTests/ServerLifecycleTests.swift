import Foundation
import RiderReferenceServer
import Testing
import TestSupport

@Suite("Starting and stopping")
struct ServerLifecycleTests {
    @Test("many servers start and stop in one process, each on its own port")
    func manyServers() async throws {
        var ports: Set<Int> = []
        for _ in 0..<10 {
            let configuration = ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600), enableTestHooks: true)
            let port = try await TestServer.with(configuration, over: .socket) { (server: TestServer) async throws -> Int in
                #expect(try await server.get("/_test/stats").status == 200)
                return server.baseURL.port ?? 0
            }
            ports.insert(port)
        }
        #expect(ports.count >= 2)
        #expect(!ports.contains(0))
    }

    @Test("the base URL is http on the loopback host with the bound port; stopping twice is harmless")
    func baseURL() async throws {
        try await withReferenceServer(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            #expect(server.baseURL.scheme == "http")
            #expect(server.baseURL.host == "127.0.0.1")
            #expect((server.baseURL.port ?? 0) > 0)
            #expect(server.baseURL.path.isEmpty)
            await server.stop()  // and withReferenceServer stops it again
        }
    }

    @Test("a taken port makes start throw instead of hanging")
    func portTaken() async throws {
        try await withReferenceServer(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { first in
            let port = try #require(first.baseURL.port)
            await #expect(throws: ReferenceServerError.self) {
                try await withReferenceServer(ReferenceServerConfiguration(port: port, seedUsers: 0)) { _ in }
            }
        }
    }

    @Test("out-of-range settings are refused before binding")
    func invalidConfiguration() async throws {
        for configuration in [
            ReferenceServerConfiguration(port: 70_000),
            ReferenceServerConfiguration(seedUsers: 1_000_000),
            ReferenceServerConfiguration(demoEmail: "no-at-sign"),
            ReferenceServerConfiguration(demoPassword: "short"),
        ] {
            await #expect(throws: ReferenceServerError.self) {
                try await withReferenceServer(configuration) { _ in }
            }
        }
    }

    @Test("only loopback hosts count as loopback")
    func loopbackCheck() {
        for host in ["127.0.0.1", "127.1.2.3", "localhost", "::1"] {
            #expect(ReferenceServerConfiguration(host: host).isLoopbackHost, "\(host)")
        }
        for host in ["0.0.0.0", "192.168.1.10", "example.com", "127.0.0.256", "::"] {
            #expect(!ReferenceServerConfiguration(host: host).isLoopbackHost, "\(host)")
        }
    }
}
