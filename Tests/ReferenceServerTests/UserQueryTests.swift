import Foundation
import RiderReferenceServer
import Testing

@Suite("GET /users, /users/search and /users/{id}")
struct UserQueryTests {
    @Test("the list is ordered by id and pages report total and has_next")
    func listPages() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 45, accessTokenTTL: .seconds(3600))) { server in
            let token = try await server.login().accessToken
            let first = try await server.get("/users", token: token).decode(UserPageBody.self)
            #expect(first.total == 46)
            #expect(first.page == 1 && first.limit == 20)
            #expect(first.hasNext)
            #expect(first.users.map(\.id) == (0..<20).map { String(format: "u_%06d", $0) })
            let last = try await server.get("/users?page=3&limit=20", token: token).decode(UserPageBody.self)
            #expect(last.users.count == 6)
            #expect(!last.hasNext)
            let beyond = try await server.get("/users?page=9&limit=100", token: token).decode(UserPageBody.self)
            #expect(beyond.users.isEmpty && !beyond.hasNext && beyond.total == 46)
        }
    }

    @Test(
        "paging parameters out of range answer 400 naming the parameter",
        arguments: [("page=0", "page"), ("limit=0", "limit"), ("limit=101", "limit"), ("page=two", "page"), ("limit=", "limit")]
    )
    func badPaging(query: String, field: String) async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let token = try await server.login().accessToken
            for path in ["/users?\(query)", "/users/search?q=demo&\(query)"] {
                let response = try await server.get(path, token: token)
                #expect(response.status == 400)
                #expect(try response.decode(ProblemBody.self).fields == [field])
            }
        }
    }

    @Test("search ignores case and diacritics: jose finds José")
    func diacriticInsensitiveSearch() async throws {
        try await TestServer.with { server in
            let token = try await server.login().accessToken
            let page = try await server.get("/users/search?q=jose&limit=100", token: token).decode(UserPageBody.self)
            #expect(page.total > 0)
            #expect(page.users.contains { $0.displayName.hasPrefix("José ") })
            #expect(page.users.allSatisfy { $0.displayName.lowercased().hasPrefix("jos") || $0.email.hasPrefix("jose") })
            let accented = try await server.get("/users/search?q=JOS%C3%89&limit=100", token: token).decode(UserPageBody.self)
            #expect(accented.users.map(\.id) == page.users.map(\.id))
        }
    }

    @Test("every term must be a prefix of a word of the name or email")
    func multiTermSearch() async throws {
        try await TestServer.with { server in
            let token = try await server.login().accessToken
            let target = try await server.get("/users/u_000005", token: token).decode(UserBody.self)
            let words = SearchFold.fold(target.displayName).split(separator: " ")
            let first = try #require(words.first?.prefix(2))
            let last = try #require(words.last?.prefix(3))
            let query = "\(first.uppercased()) \(last)"
            let escaped = try #require(query.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let page = try await server.get("/users/search?q=\(escaped)&limit=100", token: token).decode(UserPageBody.self)
            #expect(page.users.contains(target))
            for user in page.users {
                let words = SearchFold.fold(user.displayName).split(whereSeparator: { !$0.isLetter })
                    + user.email.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
                #expect(words.contains { $0.hasPrefix(first) } && words.contains { $0.hasPrefix(last) }, "\(user.displayName)")
            }
            let byEmail = try await server.get("/users/search?q=example", token: token).decode(UserPageBody.self)
            #expect(byEmail.total == 201)
        }
    }

    @Test("names starting with the query come first, then by folded name, then by id")
    func searchOrder() async throws {
        try await TestServer.with { server in
            let token = try await server.login().accessToken
            // "m" starts first names (Mia, Max, Małgorzata) and surnames (Müller, Martín, Mbeki).
            let page = try await server.get("/users/search?q=m&limit=100", token: token).decode(UserPageBody.self)
            let fold = SearchFold.fold
            #expect(page.users.count > 10)
            let prefixFlags = page.users.map { fold($0.displayName).hasPrefix("m") }
            #expect(prefixFlags == prefixFlags.sorted { $0 && !$1 })
            let leading = page.users.filter { fold($0.displayName).hasPrefix("m") }
            #expect(leading.map { fold($0.displayName) } == leading.map { fold($0.displayName) }.sorted())
        }
    }

    @Test("search pages report total and has_next")
    func searchPaging() async throws {
        try await TestServer.with { server in
            let token = try await server.login().accessToken
            let all = try await server.get("/users/search?q=example&limit=100&page=2", token: token).decode(UserPageBody.self)
            #expect(all.total == 201 && all.users.count == 100 && all.hasNext)
            let last = try await server.get("/users/search?q=example&limit=100&page=3", token: token).decode(UserPageBody.self)
            #expect(last.users.count == 1 && !last.hasNext)
        }
    }

    @Test(
        "a missing, empty or over-long query answers 400 naming q",
        arguments: ["", "?q=", "?q=%20%20", "?q=" + String(repeating: "a", count: 101)]
    )
    func badQuery(query: String) async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 0, accessTokenTTL: .seconds(3600))) { server in
            let token = try await server.login().accessToken
            let response = try await server.get("/users/search\(query)", token: token)
            #expect(response.status == 400)
            #expect(try response.decode(ProblemBody.self).fields == ["q"])
        }
    }

    @Test("a user is found by id and an unknown id answers 404")
    func userByID() async throws {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 10, accessTokenTTL: .seconds(3600))) { server in
            let token = try await server.login().accessToken
            let user = try await server.get("/users/u_000003", token: token)
            #expect(user.status == 200)
            #expect(Set(try user.object().keys) == ["id", "email", "display_name", "role", "rider_type", "created_at"])
            for missing in ["/users/u_000011", "/users/u_0000003", "/users/bob", "/users/%FF"] {
                let response = try await server.get(missing, token: token)
                #expect(response.status == 404, "\(missing)")
                #expect(response.header("Content-Type") == "application/problem+json")
            }
        }
    }
}
