import Foundation
import RiderDomain
@testable import RiderInfrastructure
import Testing

/// What a provider must do for the vault beyond a round trip, checked on each real provider
/// `make test` runs: gnome-keyring (`scripts/with-keyring.sh`) and KeePassXC
/// (`scripts/with-keepassxc.sh`). KeePassXC 2.7.4 never completes a replacing CreateItem and
/// expands `{…}` placeholders in secrets; these tests failed there before the vault updated items
/// through `Item.SetSecret` and stored its secret as tagged base64url.
@Suite("Secret Service vault on a real provider: updates in place, secrets left alone",
       .enabled(if: Keyring.expected, "needs a keyring: run through scripts/with-keyring.sh or with-keepassxc.sh"))
struct SecretServiceProviderTests {
    /// `RIDER_TEST_KEYRING_PROVIDER` as the wrapper script sets it (`gnome-keyring`, `keepassxc`).
    let provider = ProcessInfo.processInfo.environment["RIDER_TEST_KEYRING_PROVIDER"] ?? "unknown"

    private func session(_ generation: Int) -> Session {
        var session = VaultFixtures.session
        session.accessToken = "access-SECRET-\(generation)"
        session.refreshToken = "refresh-SECRET-\(generation)"
        return session
    }

    /// secret-tool's listing of the items for `service`, without the secret and the modification time.
    private func items(_ service: String) throws -> [String] {
        try SecretTool.run(["search", "--all", "xdg:schema", SecretServiceClient.schemaName, "service", service])
            .split(separator: "\n").map(String.init)
            .filter { !$0.hasPrefix("secret = ") && !$0.hasPrefix("modified = ") }
    }

    @Test("saving over a stored session updates that item in place: one item, same label and attributes, newest secret")
    func updatesInPlace() async throws {
        let vault = SecretServiceTokenVault(service: Keyring.uniqueService(), timeout: Keyring.timeout)
        try await vault.saveSession(session(0))
        let first = try items(vault.service)
        #expect(first.filter { $0.hasPrefix("[") }.count == 1, "\(first)")
        for generation in 1...3 {
            // A provider that never completes the update (KeePassXC 2.7.4 with a replacing
            // CreateItem) makes this throw `timedOut` once the vault's retries are spent.
            try await vault.saveSession(session(generation))
            #expect(try await vault.loadSession() == session(generation))
            #expect(try items(vault.service) == first, "the item was replaced or duplicated (\(provider))")
        }
        try await vault.removeSession()
        #expect(try items(vault.service).isEmpty)
    }

    @Test("an item holding raw JSON, as RiderKit stored it before the tagged encoding, is read and then updated in place")
    func readsAndUpdatesRawJSON() async throws {
        let service = Keyring.uniqueService()
        // secret-tool store is libsecret's secret_password_store, the call RiderKit used to make.
        let json = """
            {"version":1,"access_token":"old-SECRET","refresh_token":"old-refresh-SECRET","expires_at":1800000000,\
            "user_id":"u_000042","role":"admin","token_type":"Bearer","issued_at":1799999000}
            """
        try SecretTool.run(["store", "--label=RiderKit session for u_000042 on old", "xdg:schema",
                            SecretServiceClient.schemaName, "service", service, "account", "u_000042"], stdin: json)
        let before = try items(service)
        let vault = SecretServiceTokenVault(service: service, timeout: Keyring.timeout)
        let loaded = try #require(try await vault.loadSession())
        #expect(loaded.accessToken == "old-SECRET" && loaded.refreshToken == "old-refresh-SECRET")

        try await vault.saveSession(session(1))
        #expect(try items(service) == before, "the old item keeps its label and attributes (\(provider))")
        let secret = try SecretTool.run(["lookup", "service", service]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(secret.hasPrefix("riderkit:v2:"))
        #expect(try await vault.loadSession() == session(1))
        try await vault.removeSession()
    }

    @Test("tokens that look like placeholders or references come back exactly as saved")
    func placeholdersLeftAlone() async throws {
        let vault = SecretServiceTokenVault(service: Keyring.uniqueService(), timeout: Keyring.timeout)
        var tricky = session(0)
        tricky.accessToken = "{REF:P@I:46C9B1FF}{USERNAME}{PASSWORD}"
        tricky.refreshToken = "{S:Notes}{{nested}}"
        try await vault.saveSession(tricky)
        #expect(try await vault.loadSession() == tricky)
        try await vault.saveSession(tricky)
        #expect(try await SecretServiceTokenVault(service: vault.service, timeout: Keyring.timeout).loadSession() == tricky)
        try await vault.removeSession()
    }

    @Test("the default collection is named by its label, or by its object path when the label is empty")
    func namesTheCollection() async throws {
        let name = try await SecretServiceTokenVault(service: Keyring.uniqueService(), timeout: Keyring.timeout).checkAvailable()
        #expect(!name.trimmingCharacters(in: .whitespaces).isEmpty)
        if provider == "keepassxc" {
            // The test database has no name, like one made by keepassxc-cli db-create.
            #expect(name.hasPrefix("/org/freedesktop/secrets/collection/"), "\(name)")
        }
    }
}
