import Foundation
import RiderDomain
@testable import RiderInfrastructure
import Testing

/// The keyring read without libsecret's key exchange (#34): a read goes over the session bus in
/// a `plain` Secret Service session and returns exactly what libsecret's lookup returns; writes
/// stay on libsecret. Against a real provider (`scripts/with-keyring.sh`, `with-keepassxc.sh`).
/// The locked collection is covered end to end by LockedKeyringTests (it needs a keyring session
/// of its own).
@Suite("Secret Service read in a plain session (real provider)",
       .enabled(if: Keyring.expected, "needs a keyring: run through scripts/with-keyring.sh (make test does)"))
struct SecretServicePlainReadTests {
    /// The secret the vault's read finds for `attributes`, and how it got it.
    private func read(_ attributes: [String: String]) async throws -> (secret: String?, route: SecretServiceReadRoute) {
        let timeout = Keyring.timeout
        let read = try await KeyringCall.run(timeout: timeout) { cancellable throws(VaultError) in
            try SecretServiceClient.read(attributes, timeout: timeout, cancellable)
        }
        return (read.secret, read.route)
    }

    /// What libsecret's own lookup (with its Diffie-Hellman session) finds for `attributes`.
    private func libsecretLookup(_ attributes: [String: String]) async throws -> String? {
        try await KeyringCall.run(timeout: Keyring.timeout) { cancellable throws(VaultError) in
            try SecretServiceClient.lookup(attributes, cancellable)
        }
    }

    @Test("a session libsecret saved is loaded over a plain session: no key exchange, the same session")
    func loadsWithoutKeyExchange() async throws {
        let vault = SecretServiceTokenVault(service: Keyring.uniqueService(), timeout: Keyring.timeout)
        try await vault.saveSession(VaultFixtures.session)
        #expect(try await vault.loadSession() == VaultFixtures.session)
        // Before #34 every read went through libsecret's lookup, which opens a
        // dh-ietf1024-sha256-aes128-cbc-pkcs7 session; there was no other route.
        #expect(await vault.lastReadRoute == .bus(session: "plain"))
        try await vault.removeSession()
        #expect(try await vault.loadSession() == nil)
        #expect(await vault.lastReadRoute == .bus(session: nil), "no item: no session is opened at all")
    }

    @Test("the plain read returns, byte for byte, the secret libsecret's lookup returns",
          arguments: ["riderkit:v2:eyJ2ZXJzaW9uIjoyfQ", "pässwörd ✓ \"quoted\" back\\slash\ttab 𝄞 end"])
    func sameBytesAsLibsecret(_ secret: String) async throws {
        let service = Keyring.uniqueService()
        let attributes = ["service": service, "account": "u_1"]
        // Stored by libsecret in another process (secret-tool is secret_password_store).
        try SecretTool.run(["store", "--label=plain read test", "xdg:schema", SecretServiceClient.schemaName,
                            "service", service, "account", "u_1"], stdin: secret)
        defer { _ = try? SecretTool.run(["clear", "service", service]) }
        let plain = try await read(attributes)
        #expect(plain.route == .bus(session: "plain"))
        #expect(plain.secret.map { Array($0.utf8) } == Array(secret.utf8))
        #expect(try await libsecretLookup(attributes).map { Array($0.utf8) } == Array(secret.utf8))
    }

    @Test("an item is found by the same attributes as libsecret's lookup: xdg:schema included, account optional")
    func sameMatching() async throws {
        let service = Keyring.uniqueService()
        try SecretTool.run(["store", "--label=other schema", "xdg:schema", "org.example.Other", "service", service],
                           stdin: "not-ours")
        defer { _ = try? SecretTool.run(["clear", "service", service]) }
        // Only another schema's item under the service: neither path sees it.
        #expect(try await read(["service": service]).secret == nil)
        #expect(try await libsecretLookup(["service": service]) == nil)

        try SecretTool.run(["store", "--label=ours", "xdg:schema", SecretServiceClient.schemaName,
                            "service", service, "account", "u_2"], stdin: "ours-u_2")
        #expect(try await read(["service": service]).secret == "ours-u_2")
        #expect(try await read(["service": service, "account": "u_2"]).secret == "ours-u_2")
        #expect(try await read(["service": service, "account": "u_3"]).secret == nil)
    }
}
