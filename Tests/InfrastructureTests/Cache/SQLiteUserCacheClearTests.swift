import Foundation
import RiderApplication
import RiderDomain
import RiderInfrastructure
import RiderKit
import TestSupport
import Testing

/// Clearing the cache (and a logout that clears it) promises no user is left on the disk, including in the damaged
/// copies that recoveries moved aside.
@Suite("SQLiteUserCache: clearing removes moved-aside copies")
struct SQLiteUserCacheClearTests {
    /// A cache folder with two damaged copies beside the live file, each with its log: one moved
    /// aside earlier (holding users), one moved aside by the cache itself on opening.
    private func recoveredFolder() async throws -> CacheFolder {
        let folder = try CacheFolder()
        let cache = folder.cache()
        try await cache.store(CacheSamples.riders, at: CacheSamples.epoch)
        await cache.close()
        let aside = folder.file.path + ".corrupt-20250102T030405Z"
        try FileManager.default.copyItem(atPath: folder.file.path, toPath: aside)
        try Data("users are still in here".utf8).write(to: URL(fileURLWithPath: aside + "-wal"))
        // A second damage, recovered from by the cache itself.
        try Data(repeating: 0x41, count: 8_192).write(to: folder.file)
        #expect(chmod(folder.file.path, 0o600) == 0)
        let recovering = folder.cache()
        try await recovering.store([CacheSamples.riders[0]], at: CacheSamples.epoch)
        #expect(await recovering.recoveredFiles.count == 1)
        await recovering.close()
        let siblings = try folder.siblings()
        // The first copy has the log the test gave it; the second was closed cleanly, so its log
        // was folded back and removed before the damage.
        #expect(siblings.filter { $0.contains(".corrupt-") }.count >= 3, "two copies and a log: \(siblings)")
        #expect(try permissions(of: folder.file) == 0o600, "the new file is as private as the first")
        return folder
    }

    @Test("rider cache clear (RiderKit.Cache.clear → removeAll) deletes every users.sqlite.corrupt-… file and its log")
    func clearRemovesMovedAsideFiles() async throws {
        let folder = try await recoveredFolder()
        defer { folder.remove() }
        let cache = folder.cache()

        let removed = try await RiderKit.Cache(cache: cache).clear()

        #expect(removed == 1)
        #expect(try await cache.statistics().entries == 0)
        await cache.close()
        let siblings = try folder.siblings()
        #expect(siblings.allSatisfy { !$0.contains(".corrupt-") }, "\(siblings)")
        #expect(siblings.contains("users.sqlite"), "the cache itself stays, empty")
    }

    @Test("logging out with the cache cleared deletes the moved-aside copies too")
    func logoutRemovesMovedAsideFiles() async throws {
        let folder = try await recoveredFolder()
        defer { folder.remove() }
        let cache = folder.cache()
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.post, "/auth/revoke", times: 2, with: .status(200))

        let outcome = try await Logout(sessions: harness.sessions, cache: cache)()

        #expect(outcome == Logout.Outcome(wasSignedIn: true, revokedOnServer: true))

        await cache.close()
        let siblings = try folder.siblings()
        #expect(siblings.allSatisfy { !$0.contains(".corrupt-") }, "\(siblings)")
    }

    @Test("other files in the folder are left alone")
    func clearKeepsOtherFiles() async throws {
        let folder = try await recoveredFolder()
        defer { folder.remove() }
        let neighbour = folder.file.deletingLastPathComponent().appendingPathComponent("sports.json")
        try Data("{}".utf8).write(to: neighbour)
        let cache = folder.cache()

        try await cache.removeAll()
        await cache.close()

        #expect(FileManager.default.fileExists(atPath: neighbour.path))
    }
}
