import Foundation

/// Moves a damaged cache file out of the way, with its write-ahead log, so a new one can be
/// created in its place. Renames rather than deletes: a person may want to look at it, and the
/// next run must not trip over it again.
enum CacheFileRecovery {
    /// What follows the cache file's name in the name of a copy moved aside.
    static let movedAsideMarker = ".corrupt-"

    /// Renames `file` to `<file>.corrupt-<UTC timestamp>` (and its `-wal` alongside); removes the
    /// `-shm` index, which SQLite rebuilds.
    /// - Returns: where the file went, or `nil` when there was no file.
    /// - Throws: ``CacheFileError/fileSystem(_:)`` when the rename fails.
    static func moveAside(_ file: URL, at date: Date) throws -> URL? {
        let manager = FileManager.default
        let aside = freeName(for: file, at: date)
        let wal = URL(fileURLWithPath: file.path + "-wal")
        let shm = URL(fileURLWithPath: file.path + "-shm")
        do {
            guard manager.fileExists(atPath: file.path) else {
                try? manager.removeItem(at: wal)
                try? manager.removeItem(at: shm)
                return nil
            }
            try manager.moveItem(at: file, to: aside)
            if manager.fileExists(atPath: wal.path) {
                try manager.moveItem(at: wal, to: URL(fileURLWithPath: aside.path + "-wal"))
            }
            if manager.fileExists(atPath: shm.path) { try manager.removeItem(at: shm) }
        } catch {
            throw CacheFileError.fileSystem(
                "the user cache \(file.path) is damaged and cannot be moved aside; delete it by hand")
        }
        return aside
    }

    /// `users.sqlite.corrupt-20261123T094512Z`, with `-2`, `-3`… when that name is taken.
    private static func freeName(for file: URL, at date: Date) -> URL {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let base = file.path + movedAsideMarker + formatter.string(from: date)
        var candidate = base
        var counter = 2
        while FileManager.default.fileExists(atPath: candidate) {
            candidate = "\(base)-\(counter)"
            counter += 1
        }
        return URL(fileURLWithPath: candidate)
    }
}
