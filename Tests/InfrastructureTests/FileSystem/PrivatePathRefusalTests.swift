import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RiderDomain
import RiderInfrastructure
import TestSupport
import Testing

/// One of the paths a person chooses for RiderKit's private files, used the way RiderKit uses it:
/// writing its file into `folder`.
struct PrivatePathUse: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let use: @Sendable (_ folder: URL) async throws -> Void

    static let vault = PrivatePathUse(testDescription: "the file: vault") { folder in
        let vault = EncryptedFileTokenVault(file: folder.appendingPathComponent("session.vault"), passphrase: .fixed("pass"))
        try await vault.saveSession(VaultFixtures.session)
    }

    static let recording = PrivatePathUse(testDescription: "--record DIR") { folder in
        let server = StubTransport()
        server.stub(.get, "/auth/me", with: .status(200))
        guard let url = URL(string: "https://api.example.test/auth/me") else { throw URLError(.badURL) }
        let recorder = RecordingTransport(base: server, folder: folder, clock: ManualClock())
        _ = try await recorder.send(HTTPRequest(method: .get, url: url))
    }

    static let userCache = PrivatePathUse(testDescription: "the sqlite: cache") { folder in
        let cache = SQLiteUserCache(configuration: .init(file: folder.appendingPathComponent("users.sqlite")))
        do {
            try await cache.store([CacheSamples.riders[0]], at: CacheSamples.epoch)
        } catch {
            await cache.close()
            throw error
        }
        await cache.close()
    }

    static let sportCatalogue = PrivatePathUse(testDescription: "sports.json") { folder in
        try await FileSportCatalogueCache(file: folder.appendingPathComponent("sports.json"))
            .save(FileSportCatalogueCacheTests.catalogue)
    }

    static let all = [vault, recording, userCache, sportCatalogue]
}

/// Existing folders and files others could change are refused, never chmodded (a chmod would
/// quietly repair what someone else may have tampered with); only what RiderKit
/// creates is made 0700. Real folders in the temporary directory, which is under `/tmp` (1777,
/// root's): that it works at all shows a sticky shared folder is accepted above the file's.
@Suite("Private paths: refused, not repaired")
struct PrivatePathRefusalTests {
    static let runsAsRoot = geteuid() == 0

    @Test("an existing folder others can write is refused as the file's folder, and keeps its mode",
          arguments: PrivatePathUse.all, [0o1777, 0o2775, 0o0777, 0o0707])
    func openFolderRefused(use: PrivatePathUse, mode: Int) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = try makeFolder(directory.url.appendingPathComponent("chosen"), mode: mode)

        let message = try #require(await refusal { try await use.use(folder) }, "was not refused")

        #expect(try status(of: folder).mode == mode, "the folder's mode was changed")
        #expect(try contents(of: folder).isEmpty, "something was written into the refused folder")
        #expect(message.contains(folder.path + "/"), "\(message)")
        if mode & 0o1000 != 0 {
            #expect(message.contains("shared folder") && message.contains("mkdir -m 700 \(folder.path)/rider"), "\(message)")
            #expect(!message.contains("chmod"), "never suggests closing a shared folder: \(message)")
        } else {
            #expect(message.contains("chmod go-w \(folder.path)/"), "\(message)")
        }
    }

    @Test("a folder that belongs to another user is refused and keeps its owner",
          .enabled(if: runsAsRoot, "only root can give a folder away"), arguments: PrivatePathUse.all)
    func foreignFolderRefused(use: PrivatePathUse) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = try makeFolder(directory.url.appendingPathComponent("theirs"), mode: 0o700)
        try giveToNobody(folder)

        let message = try #require(await refusal { try await use.use(folder) }, "was not refused")

        #expect(try status(of: folder).owner == Self.nobody.uid, "the folder's owner was changed")
        #expect(try status(of: folder).mode == 0o700)
        #expect(try contents(of: folder).isEmpty)
        #expect(message.contains("belongs to nobody") && message.contains("chown root \(folder.path)/"), "\(message)")
    }

    @Test("a folder above the file's that others can write (2775) is refused, and nothing is created in it",
          arguments: PrivatePathUse.all)
    func openAncestorRefused(use: PrivatePathUse) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let shared = try makeFolder(directory.url.appendingPathComponent("team"), mode: 0o2775)

        let message = try #require(await refusal { try await use.use(shared.appendingPathComponent("mine/rider")) })

        #expect(try status(of: shared).mode == 0o2775)
        #expect(try contents(of: shared).isEmpty)
        #expect(message.contains("chmod go-w \(shared.path)/"), "\(message)")
    }

    @Test("a folder above the file's that another user owns is refused",
          .enabled(if: runsAsRoot, "only root can give a folder away"), arguments: PrivatePathUse.all)
    func foreignAncestorRefused(use: PrivatePathUse) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let theirs = try makeFolder(directory.url.appendingPathComponent("theirs"), mode: 0o755)
        let mine = try makeFolder(theirs.appendingPathComponent("mine"), mode: 0o700)
        try giveToNobody(theirs)

        let message = try #require(await refusal { try await use.use(mine) })

        #expect(try status(of: theirs).owner == Self.nobody.uid)
        #expect(try contents(of: mine).isEmpty)
        #expect(message.contains("chown root \(theirs.path)/"), "\(message)")
    }

    @Test("a root-owned sticky folder such as /tmp is accepted above the file's folder, and left as it is",
          .enabled(if: runsAsRoot, "the folder must be root's"), arguments: PrivatePathUse.all)
    func stickyAncestorAccepted(use: PrivatePathUse) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let shared = try makeFolder(directory.url.appendingPathComponent("tmp"), mode: 0o1777)
        let mine = shared.appendingPathComponent("mine")

        try await use.use(mine)

        #expect(try status(of: shared).mode == 0o1777)
        #expect(try status(of: mine).mode == 0o700)
        #expect(try !contents(of: mine).isEmpty)
    }

    @Test("missing folders are created 0700; existing private ones are used and keep their mode",
          arguments: PrivatePathUse.all)
    func createdFoldersArePrivate(use: PrivatePathUse) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let existing = try makeFolder(directory.url.appendingPathComponent("mine"), mode: 0o750)
        let fresh = existing.appendingPathComponent("a/b")

        try await use.use(fresh)
        try await use.use(existing)

        #expect(try status(of: existing).mode == 0o750, "an existing folder was chmodded")
        #expect(try status(of: existing.appendingPathComponent("a")).mode == 0o700)
        #expect(try status(of: fresh).mode == 0o700)
        #expect(try !contents(of: fresh).isEmpty)
    }

    @Test("an existing vault file another user owns is refused, even at 0600",
          .enabled(if: runsAsRoot, "only root can give a file away"))
    func foreignVaultFileRefused() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("session.vault")
        try await PrivatePathUse.vault.use(directory.url)
        try giveToNobody(file)
        let vault = EncryptedFileTokenVault(file: file, passphrase: .fixed("pass"))

        await #expect(throws: VaultError.notOwned(file: file.path, owner: "nobody", user: "root")) { try await vault.load() }
        await #expect(throws: VaultError.notOwned(file: file.path, owner: "nobody", user: "root")) {
            try await vault.save(VaultFixtures.session)
        }
        #expect(try status(of: file).owner == Self.nobody.uid)
        #expect(VaultError.notOwned(file: file.path, owner: "nobody", user: "root").message.contains("chown root \(file.path)"))
    }

    @Test("an existing cache file others may read, or that another user owns, is refused and left as it is")
    func openCacheFileRefused() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("users.sqlite")
        try await PrivatePathUse.userCache.use(directory.url)
        let cache = SQLiteUserCache(configuration: .init(file: file))

        for mode in [0o644, 0o660, 0o604] {
            #expect(chmod(file.path, mode_t(mode)) == 0)
            let message = try #require(await refusal { _ = try await cache.statistics() }, "mode \(mode)")
            #expect(message.contains("chmod 600 \(file.path)"), "\(message)")
            #expect(try status(of: file).mode == mode)
        }
        #expect(chmod(file.path, 0o600) == 0)
        if Self.runsAsRoot {
            try giveToNobody(file)
            let message = try #require(await refusal { _ = try await cache.statistics() })
            #expect(message.contains("chown root \(file.path)"), "\(message)")
            #expect(try status(of: file).owner == Self.nobody.uid)
            #expect(chown(file.path, 0, 0) == 0)
        }
        #expect(try await cache.statistics().entries == 1, "the same file opens once it is private again")
        await cache.close()
    }

    @Test("a sports.json others may read is not trusted: it reads as no catalogue")
    func openSportCatalogueIgnored() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("sports.json")
        try await PrivatePathUse.sportCatalogue.use(directory.url)
        #expect(await FileSportCatalogueCache(file: file).load() == FileSportCatalogueCacheTests.catalogue)

        #expect(chmod(file.path, 0o666) == 0)

        #expect(await FileSportCatalogueCache(file: file).load() == nil)
    }

    // MARK: Helpers

    static let nobody: (uid: uid_t, gid: gid_t) = {
        guard let entry = getpwnam("nobody") else { return (65534, 65534) }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }()

    /// Creates `url` and sets its mode exactly (sticky and set-group bits included), as a person would.
    private func makeFolder(_ url: URL, mode: Int) throws -> URL {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        guard chmod(url.path, mode_t(mode)) == 0 else { throw POSIXError(.EPERM) }
        return url
    }

    private func giveToNobody(_ url: URL) throws {
        guard chown(url.path, Self.nobody.uid, Self.nobody.gid) == 0 else { throw POSIXError(.EPERM) }
    }

    /// The permission bits (sticky and set-group included) and the owner of `url`.
    private func status(of url: URL) throws -> (mode: Int, owner: uid_t) {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        guard let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue,
              let owner = (attributes[.ownerAccountID] as? NSNumber)?.uint32Value else { throw POSIXError(.EIO) }
        return (mode, owner)
    }

    private func contents(of url: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path)
    }

    /// The message a refusal carries, or `nil` when `body` succeeded.
    private func refusal(_ body: () async throws -> Void) async -> String? {
        do {
            try await body()
            return nil
        } catch let error as VaultError {
            return error.message
        } catch let error as RiderError where error.code == .storage {
            return error.detail ?? error.message
        } catch {
            return "unexpected \(error)"
        }
    }
}
