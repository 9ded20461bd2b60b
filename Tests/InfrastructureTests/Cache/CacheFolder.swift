import Foundation
import Logging
import RiderDomain
import RiderInfrastructure

/// A temporary folder holding one cache file, with helpers to open caches on it.
struct CacheFolder {
    let directory: TemporaryDirectory
    /// `<temp>/rider/users.sqlite`, so opening the cache also creates a folder.
    let file: URL

    init() throws {
        directory = try TemporaryDirectory()
        file = directory.url.appendingPathComponent("rider", isDirectory: true).appendingPathComponent("users.sqlite")
    }

    /// A folder whose cache file holds `count` users ("Rider Number 1"…), closed so everything is
    /// in the main file.
    static func filled(count: Int = 2_000) async throws -> CacheFolder {
        let folder = try CacheFolder()
        let cache = folder.cache(maximumEntries: count)
        try await cache.store((1...count).map { CacheSamples.user($0, "Rider Number \($0)") }, at: CacheSamples.epoch)
        await cache.close()
        return folder
    }

    /// Overwrites half the file's length with garbage from the third page on: the header stays
    /// sound, so the damage shows only when a query reads those pages.
    func damagePagesPastHeader() throws {
        let size = try fileSize()
        let handle = try FileHandle(forWritingTo: file)
        try handle.seek(toOffset: 8_192)
        try handle.write(contentsOf: Data(repeating: 0xEE, count: size / 2))
        try handle.close()
    }

    /// Writes 4 KiB of garbage over the middle of the file, past a sound header: damage only a
    /// query that reads those pages, or the full check, can find.
    func damageMiddlePages() throws {
        let size = try fileSize()
        let handle = try FileHandle(forWritingTo: file)
        try handle.seek(toOffset: UInt64(size / 2))
        try handle.write(contentsOf: Data(repeating: 0xEE, count: 4_096))
        try handle.close()
    }

    private func fileSize() throws -> Int {
        guard let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber else {
            throw CocoaError(.fileReadUnknown)
        }
        return size.intValue
    }

    /// A cache on the file; each call is a separate connection pool, like another process.
    func cache(maximumEntries: Int = 1_000, logger: Logger? = nil) -> SQLiteUserCache {
        SQLiteUserCache(configuration: .init(file: file, maximumEntries: maximumEntries), logger: logger)
    }

    /// Gives a cache file a test wrote by other means (GRDB, `Data.write`, which leave it 0644) the
    /// mode RiderKit gives its own, since the cache refuses a file others may read.
    func makeFilePrivate() throws {
        for path in [file.path, file.path + "-wal", file.path + "-shm"] where FileManager.default.fileExists(atPath: path) {
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        }
    }

    /// The names of the files next to the cache file.
    func siblings() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path).sorted()
    }

    func remove() { directory.remove() }
}
