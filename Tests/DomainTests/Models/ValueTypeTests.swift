import Foundation
import RiderDomain
import Testing

@Suite("Small value types")
struct ValueTypeTests {
    @Test("an entity tag is weak only with the W/ prefix")
    func entityTagWeakness() {
        #expect(EntityTag(rawValue: "W/\"v1\"").isWeak)
        #expect(!EntityTag(rawValue: "\"v1\"").isWeak)
    }

    @Test("an unknown role from a newer server is kept verbatim")
    func unknownRole() throws {
        let role = try JSONDecoder().decode(Role.self, from: Data("\"moderator\"".utf8))
        #expect(role.rawValue == "moderator")
        #expect(try JSONDecoder().decode(Role.self, from: Data("\"admin\"".utf8)) == .admin)
    }

    @Test("a cached value's age is never negative, even when the clock went back")
    func cachedAge() {
        let stored = Date(timeIntervalSince1970: 1000)
        let cached = Cached(value: 1, storedAt: stored)
        #expect(cached.age(at: stored.addingTimeInterval(30)) == 30)
        #expect(cached.age(at: stored.addingTimeInterval(-30)) == 0)
    }

    @Test("an empty rider patch is empty; any field, even a removal, makes it non-empty")
    func riderPatchEmptiness() throws {
        #expect(RiderPatch().isEmpty)
        #expect(!RiderPatch(description: .remove).isEmpty)
        #expect(!RiderPatch(sports: []).isEmpty)
        #expect(!RiderPatch(avatarURL: .set(try #require(URL(string: "https://example.com/a.png")))).isEmpty)
    }
}
