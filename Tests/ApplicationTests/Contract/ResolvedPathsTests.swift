import Foundation
import RiderApplication
import RiderDomain
import Testing

/// An API client builds each query-less path's URL once; the URL is the one the configuration
/// builds, and the memory of them stays bounded.
@Suite("Resolved paths")
struct ResolvedPathsTests {
    private func configuration(_ base: String) throws -> APIConfiguration {
        try APIConfiguration(baseURL: try #require(URL(string: base)))
    }

    @Test("a path resolves to the URL the configuration builds, the second time from memory",
          arguments: ["https://api.example.test", "https://api.example.test/v1/", "http://127.0.0.1:8080/base"])
    func sameURLAsTheConfiguration(_ base: String) throws {
        let configuration = try configuration(base)
        let paths = ResolvedPaths(configuration: configuration)

        for path in ["/auth/me", "/users/u_000042", "users/relative"] {
            #expect(try paths.url(for: path, query: []) == configuration.url(for: path))
            #expect(try paths.url(for: path, query: []) == configuration.url(for: path))
        }
        #expect(paths.count == 3)
    }

    @Test("a path with a query is built each time and not kept")
    func queriesAreNotKept() throws {
        let configuration = try configuration("https://api.example.test")
        let paths = ResolvedPaths(configuration: configuration)

        let url = try paths.url(for: "/users", query: [("page", "2"), ("q", "a b")])

        #expect(url == (try configuration.url(for: "/users", query: [("page", "2"), ("q", "a b")])))
        #expect(paths.count == 0)
    }

    @Test("past its capacity, paths are still resolved but no longer kept")
    func bounded() throws {
        let configuration = try configuration("https://api.example.test")
        let paths = ResolvedPaths(configuration: configuration)

        for index in 0..<(ResolvedPaths.capacity + 10) {
            #expect(try paths.url(for: "/users/u_\(index)", query: []) == configuration.url(for: "/users/u_\(index)"))
        }

        #expect(paths.count == ResolvedPaths.capacity)
    }
}
