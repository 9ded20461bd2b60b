import Foundation
import RiderKit
import RiderKitTesting
import Testing
import TestSupport

/// Once the server has rotated the refresh token the old one is retired, so a save the
/// keyring refuses or stalls must not lose the new one. A keyring double that refuses or stalls
/// writes stands in front of a real encrypted file in a private folder.
@Suite("Automatic vault: a save the keyring refuses is never lost")
struct AutomaticTokenVaultFallbackTests {
    @Test("a rotated refresh token the keyring refuses goes to the encrypted file, with a warning and a marker")
    func refusedRefreshLandsInTheFile() async throws {
        let place = try Place()
        defer { place.remove() }
        let keyring = FlakyKeyring(holding: Fixtures.session(), writes: .refused)
        let warnings = CapturingLogLines()
        let vault = place.automatic(keyring, warnings: warnings)
        let transport = StubTransport()
        transport.stub(.post, "/auth/token", times: 1, with: .successful(
            Fixtures.tokenResponse(accessToken: "access-2", refreshToken: "refresh-2")))
        let kit = RiderKit(api: try Fixtures.configuration(), transport: transport, vault: vault,
                           cache: InMemoryUserCache(), clock: ManualClock())

        let renewed = try await kit.sessions.refresh()

        #expect(renewed.refreshToken == "refresh-2")
        #expect(await keyring.writeAttempts == 1)
        #expect(try await place.file().load()?.refreshToken == "refresh-2")
        #expect(try place.markerMode() == 0o600)
        let warning = try #require(warnings.all.only)
        #expect(warning.contains("did not take the session") && warning.contains(place.vaultFile.path), "\(warning)")
        #expect(!warning.contains("refresh-2") && !warning.contains("access-2"), "\(warning)")

        // The next process reads the file first, though the keyring answers and holds the old one.
        let next = place.automatic(keyring)
        #expect(try await next.loadSession()?.refreshToken == "refresh-2")
        let selection = await next.select()
        #expect(selection.backend == .encryptedFile(nil))
        #expect(selection.reason.contains("did not take the last save"), "\(selection.reason)")
    }

    @Test("a keyring that stalls every write is given up on within its timeout, and the file takes the session")
    func stalledWriteLandsInTheFile() async throws {
        let place = try Place()
        defer { place.remove() }
        let keyring = FlakyKeyring(holding: Fixtures.session(), writes: .stalled)
        let vault = place.automatic(keyring)

        try await vault.saveSession(Fixtures.session(accessToken: "access-2", refreshToken: "refresh-2"))

        #expect(try await place.file().load()?.refreshToken == "refresh-2")
        #expect(try await place.automatic(keyring).loadSession()?.refreshToken == "refresh-2")
    }

    @Test("the next save the keyring takes moves the session back and removes the file and the marker")
    func movesBack() async throws {
        let place = try Place()
        defer { place.remove() }
        let keyring = FlakyKeyring(holding: Fixtures.session(), writes: .refused)
        try await place.automatic(keyring).saveSession(Fixtures.session(refreshToken: "refresh-2"))
        await keyring.acceptWrites()

        let next = place.automatic(keyring)
        #expect(try await next.loadSession()?.refreshToken == "refresh-2")
        try await next.saveSession(Fixtures.session(refreshToken: "refresh-3"))

        #expect(await keyring.stored?.refreshToken == "refresh-3")
        #expect(!FileManager.default.fileExists(atPath: place.vaultFile.path))
        #expect(!FileManager.default.fileExists(atPath: place.marker.path))
        #expect(await next.select().backend == .secretService)
        #expect(try await place.automatic(keyring).loadSession()?.refreshToken == "refresh-3")
    }

    @Test("when neither the keyring nor the file takes the session, the error names both causes")
    func neitherTakesIt() async throws {
        let place = try Place()
        defer { place.remove() }
        let keyring = FlakyKeyring(holding: Fixtures.session(), writes: .refused)
        let vault = AutomaticTokenVault(probing: keyring, file: EncryptedFileTokenVault(file: place.vaultFile,
                                                                                          passphrase: .unavailable))

        let error = await #expect(throws: RiderError.self) {
            try await vault.saveSession(Fixtures.session(refreshToken: "refresh-2"))
        }
        let message = error?.errorDescription ?? ""
        #expect(error?.code == .storage, "\(message)")
        #expect(message.contains("the keyring cannot be used") && message.contains("passphrase"), "\(message)")
        #expect(!message.contains("refresh-2"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: place.marker.path))
    }

    @Test("signing out while the file holds the session removes it from the file and the keyring, and the marker")
    func signOutClearsBoth() async throws {
        let place = try Place()
        defer { place.remove() }
        let keyring = FlakyKeyring(holding: Fixtures.session(), writes: .refused)
        try await place.automatic(keyring).saveSession(Fixtures.session(refreshToken: "refresh-2"))

        let next = place.automatic(keyring)
        try await next.removeSession()

        #expect(await keyring.stored == nil)
        #expect(!FileManager.default.fileExists(atPath: place.vaultFile.path))
        #expect(!FileManager.default.fileExists(atPath: place.marker.path))
        #expect(try await place.automatic(keyring).loadSession() == nil)
    }

    @Test("a keyring that does not answer at all leaves the file in use, as before, with no marker")
    func unavailableKeyringUsesTheFile() async throws {
        let place = try Place()
        defer { place.remove() }
        let keyring = FlakyKeyring(holding: nil, writes: .refused, available: false)
        let vault = place.automatic(keyring)

        try await vault.saveSession(Fixtures.session(refreshToken: "refresh-2"))

        #expect(await keyring.writeAttempts == 0)
        #expect(try await place.file().load()?.refreshToken == "refresh-2")
        #expect(!FileManager.default.fileExists(atPath: place.marker.path))
    }
}

/// A keyring that answers its probe and reads, and refuses or stalls writes until told otherwise.
private actor FlakyKeyring: ProbedKeyring {
    enum Writes { case refused, stalled, accepted }

    private(set) var stored: Session?
    private(set) var writeAttempts = 0
    private var writes: Writes
    private let available: Bool
    nonisolated let timeout: Duration = .milliseconds(50)
    nonisolated let location = "a keyring double"

    init(holding session: Session?, writes: Writes, available: Bool = true) {
        stored = session
        self.writes = writes
        self.available = available
    }

    func acceptWrites() { writes = .accepted }

    func checkAvailable() async throws(VaultError) -> String {
        guard available else { throw .unavailable(reason: "no Secret Service on the bus") }
        return "login"
    }

    func loadSession() async throws -> Session? { stored }

    func saveSession(_ session: Session) async throws {
        writeAttempts += 1
        switch writes {
        case .refused: throw VaultError.unavailable(reason: "the provider refused the write").riderError
        case .stalled:
            try await Task.sleep(for: timeout)
            throw VaultError.timedOut(after: timeout).riderError
        case .accepted: stored = session
        }
    }

    func removeSession() async throws { stored = nil }
}

/// A private folder holding the encrypted file and its marker.
private struct Place {
    let folder: URL
    var vaultFile: URL { folder.appendingPathComponent("session.vault") }
    var marker: URL { URL(fileURLWithPath: vaultFile.path + ".newer-than-keyring") }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rider-fallback-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
    }

    func file() -> EncryptedFileTokenVault {
        EncryptedFileTokenVault(file: vaultFile, passphrase: .fixed("fallback test passphrase"))
    }

    func automatic(_ keyring: FlakyKeyring, warnings: CapturingLogLines? = nil) -> AutomaticTokenVault {
        AutomaticTokenVault(probing: keyring, file: file(), warnings: warnings?.logger(label: "test.warnings"))
    }

    func markerMode() throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: marker.path)
        return (attributes[.posixPermissions] as? Int ?? -1) & 0o777
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}
