import Foundation
import RiderDomain

extension SQLiteUserCache {
    /// Where the cache file lives and how big it may grow.
    public struct Configuration: Hashable, Sendable {
        /// The default bound on cached users.
        public static let defaultMaximumEntries = 50_000

        /// The database file (`users.sqlite`); its folder is created (mode 0700) when missing.
        public var file: URL
        /// How many users to keep before evicting the least recently used (at least 1).
        public var maximumEntries: Int
        /// How long to wait for another process that holds the write lock before failing.
        public var busyTimeout: TimeInterval
        /// Whether to run SQLite's `quick_check` when the file is opened, so a damaged file is
        /// found and replaced at once rather than at the first query that trips over it.
        public var checksIntegrityOnOpen: Bool

        public init(file: URL, maximumEntries: Int = defaultMaximumEntries, busyTimeout: TimeInterval = 10,
                    checksIntegrityOnOpen: Bool = true) {
            self.file = file
            self.maximumEntries = max(1, maximumEntries)
            self.busyTimeout = busyTimeout
            self.checksIntegrityOnOpen = checksIntegrityOnOpen
        }
    }

    /// The default file for `origin`: `$XDG_CACHE_HOME/rider/<origin folder>/users.sqlite`, one
    /// cache per server so users of different servers never mix.
    /// - Parameters:
    ///   - origin: the server origin (`https://api.example.com`).
    ///   - directories: the XDG folders.
    /// - Returns: the file URL.
    public static func defaultFile(forOrigin origin: String, in directories: XDGDirectories) -> URL {
        directories.cacheHome
            .appendingPathComponent("rider", isDirectory: true)
            .appendingPathComponent(XDGDirectories.folderName(forOrigin: origin), isDirectory: true)
            .appendingPathComponent("users.sqlite")
    }
}
