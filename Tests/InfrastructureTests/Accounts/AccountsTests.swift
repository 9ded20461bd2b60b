import Foundation
import RiderInfrastructure
import RiderKit
import RiderReferenceServer
import Testing
import TestSupport

/// Several accounts side by side through the composition root, against the reference server,
/// with each real vault: the encrypted file, and the real Secret Service (gnome-keyring under
/// `scripts/with-keyring.sh`, as `make test` runs it).
@Suite("Accounts: a session per server and account, in both vaults")
struct AccountsTests {
    enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case encryptedFile = "encrypted file", secretService = "Secret Service"
        var testDescription: String { rawValue }
        var choice: VaultChoice { self == .encryptedFile ? .encryptedFile(nil) : .secretService }
        /// The keyring runs wherever it is expected (make test, CI); the file everywhere.
        var runs: Bool { self == .encryptedFile || Keyring.expected }
    }

    static let ana = Credentials(email: "ana@example.com", password: "ana-password")

    /// A `RiderKit` of `server` as `rider` makes one: the given vault, files under `home`.
    static func rider(_ server: RunningReferenceServer, _ backend: Backend, home: URL, account: String? = nil,
                      passphrase: String = "accounts passphrase") throws -> RiderKit {
        var configuration = RiderKit.Configuration(
            api: try APIConfiguration(baseURL: server.baseURL, requestTimeout: 60), vault: backend.choice,
            directories: XDGDirectories(environment: ["HOME": home.path]), vaultPassphrase: .fixed(passphrase),
            keyringTimeout: Keyring.timeout, cache: CacheConfiguration(storage: .sqlite(nil)), proxies: .none)
        configuration.account = account
        return try RiderKit.live(configuration: configuration)
    }

    /// Registers Ana on `server` (the demo account is there already).
    static func registerAna(on server: RunningReferenceServer, home: URL) async throws {
        let rider = try rider(server, .encryptedFile, home: home.appendingPathComponent("registrar"))
        _ = try await rider.register(Registration(email: ana.email, password: ana.password, displayName: "Ana",
                                                  riderType: .learner))
    }

    @Test("a second account is added beside the first and becomes active; signing in again replaces that one only",
          arguments: Backend.allCases)
    func sideBySide(_ backend: Backend) async throws {
        guard backend.runs else { return }
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withReferenceServer { server in
            try await Self.registerAna(on: server, home: home.url)
            let rider = try Self.rider(server, backend, home: home.url)
            let demo = try await rider.login(.referenceDemo)
            let later = try Self.rider(server, backend, home: home.url)
            let ana = try await later.login(Self.ana)

            let accounts = try await later.accounts.list()
            #expect(accounts.map(\.displayName) == ["ana@example.com", "demo@example.com"])
            #expect(accounts.map(\.isActive) == [true, false])
            // Each account's own session, from its own vault entry.
            let asDemo = try Self.rider(server, backend, home: home.url, account: "demo@example.com")
            // (Tokens compared: dates come back from the vault within a microsecond, not bit for bit.)
            #expect(try await asDemo.sessions.currentSession()?.accessToken == demo.accessToken)
            let asAna = try Self.rider(server, backend, home: home.url, account: ana.userID.rawValue)
            #expect(try await asAna.sessions.currentSession()?.accessToken == ana.accessToken)

            // Demo signs in again: Demo's session is replaced, Ana's is untouched, Demo is active.
            let again = try await Self.rider(server, backend, home: home.url, account: "demo@example.com")
                .login(.referenceDemo)
            #expect(again.accessToken != demo.accessToken)
            #expect(try await Self.rider(server, backend, home: home.url, account: "ana@example.com")
                .sessions.currentSession()?.accessToken == ana.accessToken)
            #expect(try await Self.rider(server, backend, home: home.url).accounts.list().count == 2)

            // Both still work at once, each as itself, and renew at once, each under its own lock.
            async let first = asDemo.currentUser()
            async let second = asAna.currentUser()
            #expect(try await first.value.email == "demo@example.com")
            #expect(try await second.value.email == "ana@example.com")
            async let renewedDemo = asDemo.sessions.refresh()
            async let renewedAna = asAna.sessions.refresh()
            #expect(try await [renewedDemo, renewedAna].map(\.userID) == [demo.userID, ana.userID])
            let state = XDGDirectories(environment: ["HOME": home.url.path])
                .stateFolder(forOrigin: try APIConfiguration(baseURL: server.baseURL).origin)
            for id in [demo.userID, ana.userID] {
                let lock = AccountFile.file(state.appendingPathComponent("refresh.lock"), for: id)
                #expect(FileManager.default.fileExists(atPath: lock.path), "each account's own refresh lock")
            }
            for id in [demo.userID, ana.userID] { try await rider.accounts.remove(id) }
        }
    }

    @Test("removing the active account removes exactly its session and cache, and the other becomes active",
          arguments: Backend.allCases)
    func removal(_ backend: Backend) async throws {
        guard backend.runs else { return }
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withReferenceServer { server in
            try await Self.registerAna(on: server, home: home.url)
            let demo = try Self.rider(server, backend, home: home.url)
            _ = try await demo.login(.referenceDemo)
            _ = try await demo.searchUsers("jo", page: PageRequest())
            // What a RiderKit caches reaches another on the same files once its batch is written.
            await demo.close()
            let ana = try Self.rider(server, backend, home: home.url)
            _ = try await ana.login(Self.ana)
            _ = try await ana.searchUsers("ma", page: PageRequest())
            let anaEntries = try await ana.cache.statistics().entries
            #expect(anaEntries > 0)

            // Ana is active; Demo is logged out by the RiderKit bound to Demo.
            let boundToDemo = try Self.rider(server, backend, home: home.url, account: "demo@example.com")
            #expect(try await boundToDemo.cache.statistics().entries > 0)
            let outcome = try await boundToDemo.logout()
            #expect(outcome.wasSignedIn && outcome.revokedOnServer)
            #expect(try await boundToDemo.cache.statistics().entries == 0)
            let left = try await ana.accounts.list()
            #expect(left.map(\.displayName) == ["ana@example.com"] && left[0].isActive)
            #expect(try await Self.rider(server, backend, home: home.url, account: "ana@example.com")
                .cache.statistics().entries == anaEntries)

            // The active one logs out: nobody is left, and an unknown account is named as such.
            _ = try await Self.rider(server, backend, home: home.url).logout()
            #expect(try await ana.accounts.list().isEmpty)
            await #expect(throws: RiderError.unknownAccount("demo@example.com", server: server.baseURL.absoluteString
                .trimmingCharacters(in: CharacterSet(charactersIn: "/")), stored: [])) {
                _ = try await Self.rider(server, backend, home: home.url, account: "demo@example.com")
                    .sessions.currentSession()
            }
        }
    }

    @Test("a RiderKit bound to one account refuses a sign-in that comes back as another, and keeps nothing of it")
    func boundRefusesAnotherAccount() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withReferenceServer { server in
            try await Self.registerAna(on: server, home: home.url)
            _ = try await Self.rider(server, .encryptedFile, home: home.url).login(.referenceDemo)
            let boundToDemo = try Self.rider(server, .encryptedFile, home: home.url, account: "demo@example.com")
            await #expect { _ = try await boundToDemo.login(Self.ana) } throws: { ($0 as? RiderError)?.code == .otherAccount }
            let accounts = try await boundToDemo.accounts.list()
            #expect(accounts.map(\.displayName) == ["demo@example.com"])
            #expect(try await boundToDemo.sessions.currentSession()?.identity?.email == "demo@example.com")
        }
    }

    @Test("an account whose file no longer opens is reported for that account; the others keep working")
    func unreadableAccountDoesNotBlockOthers() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withReferenceServer { server in
            try await Self.registerAna(on: server, home: home.url)
            let demo = try await Self.rider(server, .encryptedFile, home: home.url).login(.referenceDemo)
            _ = try await Self.rider(server, .encryptedFile, home: home.url).login(Self.ana)
            let directories = XDGDirectories(environment: ["HOME": home.url.path])
            let origin = server.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            let demoFile = AccountFile.file(EncryptedFileTokenVault.defaultFile(forOrigin: origin, in: directories),
                                            for: demo.userID)
            var bytes = try Data(contentsOf: demoFile)
            bytes[bytes.count - 3] ^= 0xFF
            try bytes.write(to: demoFile)

            await #expect {
                _ = try await Self.rider(server, .encryptedFile, home: home.url, account: "demo@example.com")
                    .sessions.currentSession()
            } throws: { ($0 as? RiderError)?.code == .storage }
            #expect(try Data(contentsOf: demoFile) == bytes)  // reported, never replaced
            let ana = try Self.rider(server, .encryptedFile, home: home.url)
            #expect(try await ana.currentUser().value.email == "ana@example.com")
            #expect(try await ana.accounts.list().count == 2)
        }
    }

    @Test("changes to the accounts are streamed: a sign-in, a switch, a removal")
    func changesAreStreamed() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withReferenceServer { server in
            try await Self.registerAna(on: server, home: home.url)
            let rider = try Self.rider(server, .encryptedFile, home: home.url)
            var changes = await rider.accounts.changes().makeAsyncIterator()
            #expect(await changes.next()?.accounts.isEmpty == true)
            let demo = try await rider.login(.referenceDemo)
            #expect(await changes.next()?.active?.id == demo.userID)
            let ana = try await Self.rider(server, .encryptedFile, home: home.url).login(Self.ana)
            #expect(await changes.next()?.active?.id == ana.userID)
            try await rider.accounts.activate(demo.userID)
            #expect(await changes.next()?.active?.id == demo.userID)
            try await rider.accounts.remove(ana.userID)
            #expect(await changes.next()?.accounts.map(\.id) == [demo.userID])
        }
    }

    @Test("two sign-ins to one account at once leave one whole, working session")
    func concurrentSignInsToOneAccount() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withReferenceServer { server in
            let one = try Self.rider(server, .encryptedFile, home: home.url)
            let two = try Self.rider(server, .encryptedFile, home: home.url)
            async let first = one.login(.referenceDemo)
            async let second = two.login(.referenceDemo)
            let issued = try await [first, second]
            let stored = try #require(try await Self.rider(server, .encryptedFile, home: home.url).sessions.currentSession())
            #expect(issued.map(\.accessToken).contains(stored.accessToken))
            #expect(try await Self.rider(server, .encryptedFile, home: home.url).currentUser().value.email
                == "demo@example.com")
            #expect(try await one.accounts.list().count == 1)
        }
    }

    @Test("the account list is 0600, and a damaged one is reported and left as it is")
    func registryFile() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withReferenceServer { server in
            _ = try await Self.rider(server, .encryptedFile, home: home.url).login(.referenceDemo)
            let origin = server.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            let file = FileAccountRegistry.defaultFile(forOrigin: origin,
                                                       in: XDGDirectories(environment: ["HOME": home.url.path]))
            let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            let listed = String(decoding: try Data(contentsOf: file), as: UTF8.self)
            #expect(listed.contains("demo@example.com") && !listed.contains("access") && !listed.contains("refresh"))

            try Data("{ not json".utf8).write(to: file)
            await #expect {
                _ = try await Self.rider(server, .encryptedFile, home: home.url).sessions.currentSession()
            } throws: { ($0 as? RiderError)?.code == .storage }
            #expect(try Data(contentsOf: file) == Data("{ not json".utf8))
        }
    }
}
