import Foundation
import RiderDomain
@testable import RiderInfrastructure
import Testing

/// Against a real provider on a private session bus: gnome-keyring (`scripts/with-keyring.sh`)
/// or KeePassXC (`scripts/with-keepassxc.sh`); `make test` runs both.
@Suite("Secret Service token vault (real provider)",
       .enabled(if: Keyring.expected, "needs a keyring: run through scripts/with-keyring.sh (make test does)"))
struct SecretServiceTokenVaultTests {
    let session = VaultFixtures.session

    @Test("the keyring is there, unlocked, and a saved session reads back unchanged")
    func roundTrip() async throws {
        let vault = SecretServiceTokenVault(service: Keyring.uniqueService(), timeout: Keyring.timeout)
        _ = try await vault.checkAvailable()
        #expect(try await vault.loadSession() == nil)
        try await vault.saveSession(session)
        #expect(try await vault.loadSession() == session)
        #expect(try await SecretServiceTokenVault(service: vault.service, timeout: Keyring.timeout).loadSession() == session)
        try await vault.removeSession()
        #expect(try await vault.loadSession() == nil)
    }

    @Test("a session's OpenID identity is kept with it in the keyring")
    func identity() async throws {
        let vault = SecretServiceTokenVault(service: Keyring.uniqueService(), timeout: Keyring.timeout)
        var withIdentity = session
        withIdentity.identity = AccountIdentity(email: "ana@example.com", name: nil, source: .userinfo)
        try await vault.saveSession(withIdentity)
        defer { Task { try? await vault.removeSession() } }
        #expect(try await vault.loadSession()?.identity == withIdentity.identity)
    }

    @Test("where the session's tokens may be revoked is kept with it in the keyring")
    func revocationOrigin() async throws {
        let vault = SecretServiceTokenVault(service: Keyring.uniqueService(), timeout: Keyring.timeout)
        var bound = session
        bound.revocationOrigin = "https://id.example.com"
        try await vault.saveSession(bound)
        defer { Task { try? await vault.removeSession() } }
        #expect(try await vault.loadSession()?.revocationOrigin == "https://id.example.com")
    }

    @Test("secret-tool finds the item by the documented attributes, with its label, and nothing secret outside the secret")
    func secretToolSeesTheItem() async throws {
        let service = Keyring.uniqueService()
        let vault = SecretServiceTokenVault(service: service, timeout: Keyring.timeout)
        try await vault.saveSession(session)
        defer { Task { try? await vault.removeSession() } }

        let listing = try SecretTool.run(["search", "--all", "service", service, "account", "u_000042"])
        let host = try #require(URL(string: service)?.host)
        #expect(listing.contains("label = rider: u_000042 on \(host)"))
        #expect(listing.contains("attribute.server = \(service)"))
        #expect(listing.contains("schema = org.riderkit.Session"))
        #expect(listing.contains("attribute.service = \(service)"))
        #expect(listing.contains("attribute.account = u_000042"))
        let attributes = listing.split(separator: "\n").filter { $0.hasPrefix("attribute.") || $0.hasPrefix("label") }
        #expect(!attributes.contains { $0.contains("SECRET") })

        // Tagged base64url of the session JSON (docs/vault.md), which placeholder engines leave alone.
        let secret = try SecretTool.run(["lookup", "xdg:schema", "org.riderkit.Session", "service", service])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(secret.hasPrefix("riderkit:v2:") && !secret.contains("{") && !secret.contains("SECRET"))
        let json = String(decoding: try KeyringSecretEncoding.decode(secret), as: UTF8.self)
        #expect(json.contains("access-SECRET-a+b/c=") || json.contains("access-SECRET-a+b\\/c="))
    }

    @Test("an item stored with secret-tool under the schema's attributes is read by RiderKit")
    func readsWhatSecretToolStored() async throws {
        let service = Keyring.uniqueService()
        let json = """
            {"version":1,"access_token":"tool-SECRET","refresh_token":null,"expires_at":1800000000,\
            "user_id":"u_7","role":"member","token_type":"Bearer","issued_at":1799999000}
            """
        try SecretTool.run(["store", "--label=made by secret-tool", "xdg:schema", "org.riderkit.Session",
                            "service", service, "account", "u_7"], stdin: json)
        let vault = SecretServiceTokenVault(service: service, timeout: Keyring.timeout)
        let loaded = try #require(try await vault.loadSession())
        #expect(loaded.accessToken == "tool-SECRET")
        #expect(loaded.userID == "u_7")
        try await vault.removeSession()
        #expect(throws: SecretTool.Failed.self) { try SecretTool.run(["lookup", "service", service]) }
    }

    @Test("servers and scoped accounts coexist; an unscoped vault keeps one current session per server")
    func coexistence() async throws {
        let one = SecretServiceTokenVault(service: Keyring.uniqueService(), timeout: Keyring.timeout)
        let two = SecretServiceTokenVault(service: Keyring.uniqueService(), timeout: Keyring.timeout)
        var other = session
        other.userID = "u_000099"
        try await one.saveSession(session)
        try await two.saveSession(other)
        #expect(try await one.loadSession() == session)
        #expect(try await two.loadSession() == other)

        // Logging in as someone else on the same server replaces the previous account's item.
        try await one.saveSession(other)
        let listing = try SecretTool.run(["search", "--all", "service", one.service])
        #expect(listing.contains("attribute.account = u_000099") && !listing.contains("attribute.account = u_000042"))

        let alice = SecretServiceTokenVault(service: one.service, account: "alice", timeout: Keyring.timeout)
        let bob = SecretServiceTokenVault(service: one.service, account: "bob", timeout: Keyring.timeout)
        try await alice.saveSession(session)
        try await bob.saveSession(other)
        #expect(try await alice.loadSession() == session)
        #expect(try await bob.loadSession() == other)
        for vault in [one, two, alice, bob] { try await vault.removeSession() }
    }

    /// Found by `make race-check`: two removals of the same item at once, from two processes
    /// (say a logout racing an expired refresh), both found the item and the second delete failed
    /// on an item that had just gone ("No such interface org.freedesktop.Secret.Item").
    ///
    /// The same race within one process also made libsecret complete a `GTask` twice (GIO logged
    /// `g_task_return_boolean: assertion '!task->ever_returned' failed`): libsecret is not safe
    /// to call from several threads at once, so keyring calls now take turns.
    @Test("removals of one item racing each other from two vault values all succeed, leave nothing, and upset no GLib check")
    func concurrentRemovals() async throws {
        let first = SecretServiceTokenVault(service: Keyring.uniqueService(), timeout: Keyring.timeout)
        let second = SecretServiceTokenVault(service: first.service, timeout: Keyring.timeout)
        let criticals = try await GLibCriticals.collecting {
            for _ in 0..<10 {
                try await first.saveSession(session)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for vault in [first, second, first, second] { group.addTask { try await vault.removeSession() } }
                    try await group.waitForAll()
                }
                #expect(try await first.loadSession() == nil)
            }
        }
        #expect(criticals.count == 0, "GIO logged: \(criticals.first ?? "")")
    }

    @Test("a foreign secret under our attributes is a typed error that shows no secret")
    func foreignSecret() async throws {
        let service = Keyring.uniqueService()
        try SecretTool.run(["store", "--label=foreign", "xdg:schema", "org.riderkit.Session", "service", service,
                            "account", "x"], stdin: "not-json-SECRET")
        let vault = SecretServiceTokenVault(service: service, timeout: Keyring.timeout)
        await #expect {
            try await vault.load()
        } throws: { error in
            guard let error = error as? VaultError, case .unreadableSecret = error else { return false }
            return !error.message.contains("SECRET")
        }
        try await vault.removeSession()
    }
}
