import Foundation
import RiderReferenceServer
import Testing

@Suite("Seeded users")
struct SeedingTests {
    private func allUsers(seed: UInt64) async throws -> [UserBody] {
        try await TestServer.with(ReferenceServerConfiguration(seedUsers: 150, seed: seed)) { server in
            let token = try await server.login().accessToken
            var users: [UserBody] = []
            for page in 1...2 {
                users += try await server.get("/users?limit=100&page=\(page)", token: token).decode(UserPageBody.self).users
            }
            return users
        }
    }

    @Test("the same seed gives the same users, a different seed different ones")
    func deterministic() async throws {
        let first = try await allUsers(seed: 7)
        let second = try await allUsers(seed: 7)
        let other = try await allUsers(seed: 8)
        #expect(first.count == 151)
        #expect(first == second)
        #expect(first.map(\.displayName) != other.map(\.displayName))
        #expect(first.map(\.id) == other.map(\.id))
    }

    @Test("seeded users have unique ASCII emails, names with diacritics, both rider types and a few admins")
    func realistic() async throws {
        let users = try await allUsers(seed: 42)
        let emails = users.map(\.email)
        #expect(Set(emails.map { $0.lowercased() }).count == users.count)
        #expect(emails.allSatisfy { $0.allSatisfy(\.isASCII) && $0.hasSuffix("@example.com") })
        #expect(emails.dropFirst().allSatisfy { $0.range(of: #"^[a-z]+\.[a-z]+\d+@example\.com$"#, options: .regularExpression) != nil })
        #expect(users.contains { $0.displayName.unicodeScalars.contains { !$0.isASCII } })
        #expect(Set(users.map(\.riderType)) == ["mentor", "learner"])
        let admins = users.filter { $0.role == "admin" }
        #expect(!admins.isEmpty && admins.count < users.count / 10)
        #expect(users[0].id == "u_000000" && users[0].email == "demo@example.com")
        #expect(users.map(\.createdAt).allSatisfy { $0.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#, options: .regularExpression) != nil })
    }

    @Test("custom demo credentials replace the defaults")
    func customDemoAccount() async throws {
        let configuration = ReferenceServerConfiguration(
            seedUsers: 0,
            demoEmail: "rider@test.example",
            demoPassword: "another-secret",
            demoDisplayName: "Björn Demo"
        )
        try await TestServer.with(configuration) { server in
            let token = try await server.login("rider@test.example", "another-secret")
            let me = try await server.get("/auth/me", token: token.accessToken).decode(UserBody.self)
            #expect(me.displayName == "Björn Demo")
        }
    }
}
