import Foundation
import RiderReferenceServer
import Testing

@Suite("Scale")
struct ScaleTests {
    // Speed is measured by the benchmarks, not asserted here; this checks the results at scale.
    @Test("search over 100,000 users pages and counts correctly")
    func searchAtScale() async throws {
        // An hour's tokens: under the whole suite on two cores these searches outlast the default.
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 100_000, accessTokenTTL: .seconds(3600))) { server in
            let token = try await server.login().accessToken
            for query in ["jose", "a", "example"] {
                let page = try await server.get("/users/search?q=\(query)", token: token).decode(UserPageBody.self)
                #expect(page.users.count == 20 && page.hasNext, "\(query)")
            }
            let everyone = try await server.get("/users/search?q=example&limit=100", token: token).decode(UserPageBody.self)
            #expect(everyone.total == 100_001)
        }
    }
}
