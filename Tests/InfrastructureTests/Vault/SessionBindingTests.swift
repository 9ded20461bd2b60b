import Foundation
import RiderDomain
import RiderInfrastructure
import Testing

/// A stored session belongs to the server it came from: real files, and a real keyring when one
/// runs (`scripts/with-keyring.sh`).
@Suite("Session binding: a vault hands a session only to its own server")
struct SessionBindingTests {
    let session = VaultFixtures.session
    let home = SessionBinding(apiOrigin: "http://127.0.0.1:8080")
    let stranger = SessionBinding(apiOrigin: "http://127.0.0.1:9090")

    /// A session file exactly as RiderKit wrote it before sessions were bound (format 1, stored
    /// session version 1), made by a script from docs/vault.md's description (Python's hashlib
    /// scrypt and the cryptography package's AES-GCM), passphrase "legacy passphrase".
    static let formatOneFile = Data(base64Encoded: """
        UklERVJWTFQBAQ8AAAAIAAAAAQEAAQIDBAUGBwgJCgsMDQ4PZGVmZ2hpamtsbW5vUCL3Vh1VVL3gx49sIdjY3xK/SYbCmJW5Iax4w60f35qgdE3I\
        aCarU99Qv2GimLhm9qjiC4bb/DIVfosxayvt1fnEA5n8a7fe/0GzXQmY73DSbJMphXyWeeoyiala0Rmcwgk6rZGZxyP/XtFwVYHJiDuAeIPWeECa\
        LZ6WDyDp7jR0HtnppOc+PwJp+m0dRu6Gat1ltCm+Q9cPyqTQwTLcQ9rWQfete7E11b5pM9ImC33YWYDiyC+SLnn49o27TafALKuHzad7tklRK9cn\
        ExYyml5Kd237utcq2xU4RV+ZTg==
        """)
    static let formatOnePassphrase = "legacy passphrase"

    /// A passphrase source that fails the test if anyone asks it.
    static let neverAsked = VaultPassphrase { () throws(VaultError) in
        Issue.record("a passphrase was asked for a file of another server")
        throw .passphraseRequired
    }

    @Test("a file bound to one server is refused for another before any passphrase is asked, and left untouched")
    func refusedForAnotherServer() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("session.vault")
        try await EncryptedFileTokenVault(file: file, passphrase: .fixed("pw"), binding: home).save(session)
        let before = try Data(contentsOf: file)

        let elsewhere = EncryptedFileTokenVault(file: file, passphrase: Self.neverAsked, binding: stranger)
        await #expect(throws: VaultError.boundToAnotherServer(location: file.path, stored: home.description,
                                                              requested: stranger.description)) {
            try await elsewhere.load()
        }
        await #expect(throws: VaultError.self) { try await elsewhere.save(session) }
        await #expect(throws: VaultError.self) { try await elsewhere.remove() }
        #expect(try Data(contentsOf: file) == before)
        #expect(try await EncryptedFileTokenVault(file: file, passphrase: .fixed("pw"), binding: home).load() == session)
        // The port-level error names both servers.
        let message = VaultError.boundToAnotherServer(location: file.path, stored: home.description,
                                                      requested: stranger.description).message
        #expect(message.contains(home.apiOrigin) && message.contains(stranger.apiOrigin))
    }

    @Test("a session whose token endpoint moved is refused: its refresh token would go to the new one")
    func tokenEndpointIsPartOfTheBinding() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("session.vault")
        try await EncryptedFileTokenVault(file: file, passphrase: .fixed("pw"), binding: home).save(session)
        let moved = SessionBinding(apiOrigin: home.apiOrigin, tokenEndpointOrigin: "https://login.example.com")
        await #expect(throws: VaultError.self) {
            try await EncryptedFileTokenVault(file: file, passphrase: Self.neverAsked, binding: moved).load()
        }
    }

    @Test("the binding is authenticated: a file whose server was edited to another fails to open")
    func bindingCannotBeEdited() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("session.vault")
        try await EncryptedFileTokenVault(file: file, passphrase: .fixed("pw"), binding: home).save(session)
        // Same length, so only the authentication can tell.
        var bytes = try Data(contentsOf: file)
        let from = Data("127.0.0.1:8080".utf8), to = Data("127.0.0.1:9090".utf8)
        while let range = bytes.firstRange(of: from) { bytes.replaceSubrange(range, with: to) }
        try bytes.write(to: file)

        let forged = EncryptedFileTokenVault(file: file, passphrase: .fixed("pw"), binding: stranger)
        await #expect {
            try await forged.load()
        } throws: { error in
            guard case VaultError.corrupted = error else { return false }
            return true
        }
    }

    @Test("a file written before sessions were bound opens where its folder names the server, and is bound on its next save")
    func formatOneAtTheDefaultLocation() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("session.vault")
        try #require(Self.formatOneFile).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        let vault = EncryptedFileTokenVault(file: file, passphrase: .fixed(Self.formatOnePassphrase), binding: home,
                                            acceptsUnboundFile: true)

        let legacy = try #require(try await vault.load())
        #expect(legacy.accessToken == "legacy-access" && legacy.refreshToken == "legacy-refresh")
        #expect(legacy.userID == UserID("u_000001"))
        #expect(try await vault.storedBinding() == nil)

        try await vault.save(legacy)
        #expect(try await vault.storedBinding() == home)
        #expect(try await vault.load() == legacy)
        await #expect(throws: VaultError.self) {
            try await EncryptedFileTokenVault(file: file, passphrase: Self.neverAsked, binding: stranger,
                                              acceptsUnboundFile: true).load()
        }
    }

    @Test("the same file at a configured path is refused until `adopt` binds it to the server")
    func formatOneAtAConfiguredPath() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("mine.vault")
        try #require(Self.formatOneFile).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        let vault = EncryptedFileTokenVault(file: file, passphrase: .fixed(Self.formatOnePassphrase), binding: home)

        await #expect(throws: VaultError.unboundSession(file: file.path, requested: home.description)) {
            try await vault.load()
        }
        #expect(try await vault.adopt())
        #expect(try await vault.load()?.accessToken == "legacy-access")
        #expect(try await vault.storedBinding() == home)
        #expect(try await vault.adopt() == false)
    }

    @Test("a keyring item recording another token endpoint is refused; the API origin is the item's service attribute",
          .enabled(if: Keyring.expected, "needs a keyring: run through scripts/with-keyring.sh (make test does)"))
    func keyringItemIsBound() async throws {
        let service = Keyring.uniqueService()
        let original = SecretServiceTokenVault(binding: SessionBinding(apiOrigin: service), timeout: Keyring.timeout)
        try await original.saveSession(session)

        let moved = SecretServiceTokenVault(binding: SessionBinding(apiOrigin: service,
                                                                    tokenEndpointOrigin: "https://login.example.com"),
                                            timeout: Keyring.timeout)
        let refusal = await #expect(throws: VaultError.self) { try await moved.load() }
        if case .boundToAnotherServer? = refusal {} else {
            Issue.record("expected .boundToAnotherServer, got \(String(describing: refusal))")
        }
        #expect(try await original.loadSession() == session)
        #expect(try await SecretServiceTokenVault(binding: SessionBinding(apiOrigin: Keyring.uniqueService()),
                                                  timeout: Keyring.timeout).loadSession() == nil)
        try await original.removeSession()
    }
}
