import Foundation
@testable import RiderInfrastructure
import RiderKit
import RiderReferenceServer
import Testing
import TestSupport

/// A person who used RiderKit before accounts has one session per server, in the keyring or the
/// encrypted file; the first run of this RiderKit moves it over, silently and without loss.
@Suite("Accounts: a single session stored before accounts moves over on first use")
struct AccountMigrationTests {
    /// A real session of the demo account, from a RiderKit that keeps it in memory.
    static func demoSession(_ server: RunningReferenceServer) async throws -> Session {
        try await server.riderKit().login(.referenceDemo)
    }

    static func origin(_ server: RunningReferenceServer) throws -> String {
        try APIConfiguration(baseURL: server.baseURL).origin
    }

    @Test("the server's session file, as RiderKit wrote it before, becomes its account's file")
    func encryptedFile() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withReferenceServer { server in
            let session = try await Self.demoSession(server)
            let directories = XDGDirectories(environment: ["HOME": home.url.path])
            let origin = try Self.origin(server)
            // Exactly what the vault wrote before accounts: the server's one file at its default place.
            let legacy = EncryptedFileTokenVault.defaultFile(forOrigin: origin, in: directories)
            try await EncryptedFileTokenVault(file: legacy, passphrase: .fixed("accounts passphrase"),
                                              binding: SessionBinding(apiOrigin: origin)).saveSession(session)

            let rider = try AccountsTests.rider(server, .encryptedFile, home: home.url)
            #expect(try await rider.sessions.currentSession()?.accessToken == session.accessToken)
            let accounts = try await rider.accounts.list()
            #expect(accounts.map(\.id) == [session.userID] && accounts[0].isActive)
            #expect(!FileManager.default.fileExists(atPath: legacy.path))
            #expect(FileManager.default.fileExists(atPath: AccountFile.file(legacy, for: session.userID).path))
            #expect(try await rider.currentUser().value.email == "demo@example.com")
            // A second account now goes beside it.
            _ = try await rider.register(Registration(email: "ana@example.com", password: "ana-password",
                                                      displayName: "Ana", riderType: .learner))
            _ = try await AccountsTests.rider(server, .encryptedFile, home: home.url).login(AccountsTests.ana)
            #expect(try await rider.accounts.list().count == 2)
        }
    }

    @Test("a file from before sessions were bound to their server moves over too")
    func formatOneFile() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withReferenceServer { server in
            let directories = XDGDirectories(environment: ["HOME": home.url.path])
            let legacy = EncryptedFileTokenVault.defaultFile(forOrigin: try Self.origin(server), in: directories)
            try FileManager.default.createDirectory(at: legacy.deletingLastPathComponent(),
                                                    withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try #require(SessionBindingTests.formatOneFile).write(to: legacy)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: legacy.path)

            let rider = try AccountsTests.rider(server, .encryptedFile, home: home.url,
                                                passphrase: SessionBindingTests.formatOnePassphrase)
            #expect(try await rider.sessions.currentSession()?.userID == UserID("u_000001"))
            #expect(try await rider.accounts.list().map(\.id) == [UserID("u_000001")])
            #expect(!FileManager.default.fileExists(atPath: legacy.path))
        }
    }

    @Test("with a passphrase that does not open the old file, nothing moves and nothing is lost")
    func wrongPassphraseLosesNothing() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withReferenceServer { server in
            let session = try await Self.demoSession(server)
            let origin = try Self.origin(server)
            let legacy = EncryptedFileTokenVault.defaultFile(forOrigin: origin,
                                                            in: XDGDirectories(environment: ["HOME": home.url.path]))
            try await EncryptedFileTokenVault(file: legacy, passphrase: .fixed("accounts passphrase"),
                                              binding: SessionBinding(apiOrigin: origin)).saveSession(session)
            let before = try Data(contentsOf: legacy)

            let wrong = try AccountsTests.rider(server, .encryptedFile, home: home.url, passphrase: "not it")
            await #expect { _ = try await wrong.sessions.currentSession() } throws: { ($0 as? RiderError)?.code == .storage }
            #expect(try Data(contentsOf: legacy) == before)
            #expect(try await wrong.accounts.list().isEmpty)

            let right = try AccountsTests.rider(server, .encryptedFile, home: home.url)
            #expect(try await right.sessions.currentSession()?.accessToken == session.accessToken)
        }
    }

    @Test("the server's keyring item, as RiderKit wrote it before, is its account's item: listed, not copied",
          .enabled(if: Keyring.expected, "needs a keyring: run through scripts/with-keyring.sh (make test does)"))
    func keyringItem() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withReferenceServer { server in
            let session = try await Self.demoSession(server)
            let origin = try Self.origin(server)
            // The item as the keyring held it before: `service` and `account` only, the old label.
            let stored = String(decoding: try StoredSession(session, binding: SessionBinding(apiOrigin: origin)).encoded(),
                                as: UTF8.self)
            let host = try #require(server.baseURL.host)
            try SecretTool.run(["store", "--label=RiderKit session for \(session.userID) on \(host)", "xdg:schema",
                                "org.riderkit.Session", "service", origin, "account", session.userID.rawValue],
                               stdin: KeyringSecretEncoding.encode(Data(stored.utf8)))

            let rider = try AccountsTests.rider(server, .secretService, home: home.url)
            #expect(try await rider.sessions.currentSession()?.accessToken == session.accessToken)
            #expect(try await rider.accounts.list().map(\.id) == [session.userID])
            #expect(try await rider.currentUser().value.email == "demo@example.com")
            // A refresh writes the same item: still one.
            _ = try await rider.sessions.refresh()
            let listing = try SecretTool.run(["search", "--all", "service", origin])
            #expect(listing.components(separatedBy: "attribute.account = ").count - 1 == 1)
            try await rider.accounts.remove(session.userID)
        }
    }

    @Test("a new keyring item carries the server and the account, under a label a person recognises",
          .enabled(if: Keyring.expected, "needs a keyring: run through scripts/with-keyring.sh (make test does)"))
    func keyringItemOfAnAccount() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withReferenceServer { server in
            let rider = try AccountsTests.rider(server, .secretService, home: home.url)
            let session = try await rider.login(.referenceDemo)
            let origin = try Self.origin(server)
            let listing = try SecretTool.run(["search", "--all", "server", origin, "account", session.userID.rawValue])
            let host = try #require(server.baseURL.host)
            #expect(listing.contains("label = rider: demo@example.com on \(host)"))
            #expect(listing.contains("attribute.service = \(origin)"))
            #expect(listing.contains("attribute.server = \(origin)"))
            #expect(listing.contains("attribute.account = \(session.userID)"))
            try await rider.accounts.remove(session.userID)
        }
    }
}
