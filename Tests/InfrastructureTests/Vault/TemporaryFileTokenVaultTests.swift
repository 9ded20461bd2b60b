import Foundation
import RiderDomain
import RiderInfrastructure
import Testing

@Suite("Temporary file token vault (real files)")
struct TemporaryFileTokenVaultTests {
    let session = Session(
        accessToken: "access-SECRET-a+b/c=", refreshToken: "refresh-SECRET-x/y+z=",
        expiresAt: Date(timeIntervalSince1970: 1_800_000_000), userID: "u_000042", role: .admin,
        issuedAt: Date(timeIntervalSince1970: 1_799_999_000))

    @Test("a saved session reads back unchanged")
    func roundTrip() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let vault = TemporaryFileTokenVault(file: directory.url.appendingPathComponent("a/b/session.json"))

        #expect(try await vault.loadSession() == nil)
        try await vault.saveSession(session)
        #expect(try await vault.loadSession() == session)
        #expect(try await TemporaryFileTokenVault(file: vault.file).loadSession() == session)
    }

    @Test("the session file is 0600 and its folder 0700, with no temporary files left behind")
    func permissionsAreOwnerOnly() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("rider/server/session.json")
        let vault = TemporaryFileTokenVault(file: file)

        try await vault.saveSession(session)
        try await vault.saveSession(session)

        #expect(try permissions(of: file) == 0o600)
        #expect(try permissions(of: file.deletingLastPathComponent()) == 0o700)
        let siblings = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        #expect(siblings == ["session.json"])
    }

    @Test("a session file others can read is refused and left untouched")
    func refusesWorldReadableFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("session.json")
        let vault = TemporaryFileTokenVault(file: file)
        try await vault.saveSession(session)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        let before = try Data(contentsOf: file)

        await #expect {
            try await vault.loadSession()
        } throws: { error in
            guard case RiderError.storage(let message) = error else { return false }
            return message.contains(file.path) && message.contains("644") && !message.contains("SECRET")
        }
        #expect(try Data(contentsOf: file) == before)
    }

    @Test("a damaged session file gives a storage error naming it and is neither removed nor overwritten")
    func damagedFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("session.json")
        let garbage = Data("{\"access_token\": \"SECRET".utf8)
        _ = FileManager.default.createFile(atPath: file.path, contents: garbage, attributes: [.posixPermissions: 0o600])
        let vault = TemporaryFileTokenVault(file: file)

        await #expect {
            try await vault.loadSession()
        } throws: { error in
            guard case RiderError.storage(let message) = error else { return false }
            return message.contains(file.path) && !message.contains("SECRET")
        }
        #expect(try Data(contentsOf: file) == garbage)
    }

    @Test("removing is idempotent")
    func removeTwice() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let vault = TemporaryFileTokenVault(file: directory.url.appendingPathComponent("session.json"))
        try await vault.saveSession(session)
        try await vault.removeSession()
        try await vault.removeSession()
        #expect(try await vault.loadSession() == nil)
    }

    @Test("an unwritable folder gives a storage error, not a crash")
    func unwritableFolder() async throws {
        let vault = TemporaryFileTokenVault(file: URL(fileURLWithPath: "/proc/riderkit/session.json"))
        await #expect(throws: RiderError.self) { try await vault.saveSession(session) }
    }

    @Test("the vault's location says it is a temporary, unencrypted file")
    func locationIsHonest() {
        let vault = TemporaryFileTokenVault(file: URL(fileURLWithPath: "/tmp/x/session.json"))
        #expect(vault.location.contains("/tmp/x/session.json"))
        #expect(vault.location.contains("not encrypted"))
    }
}
