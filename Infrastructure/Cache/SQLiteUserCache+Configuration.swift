import Foundation
import RiderDomain

extension SQLiteUserCache {
    /// How thoroughly a file is checked when it is opened. Damage a check misses is still found
    /// by the first query that reads a damaged page (`SQLITE_CORRUPT`), and recovered from then.
    public enum IntegrityCheck: Hashable, Sendable {
        /// Only what opening and reading the schema find (not a database, newer schema).
        case none
        /// Also compares the page count in the file's header with the file's size, which catches
        /// a truncated file for the cost of reading 100 bytes.
        case header
        /// Also runs SQLite's `PRAGMA quick_check`, which reads every page (tens of
        /// milliseconds for 100,000 users).
        case full
    }

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
        /// How the file is checked when opened; ``IntegrityCheck/header`` unless told.
        public var integrityCheck: IntegrityCheck

        public init(file: URL, maximumEntries: Int = defaultMaximumEntries, busyTimeout: TimeInterval = 10,
                    integrityCheck: IntegrityCheck = .header) {
            self.file = file
            self.maximumEntries = max(1, maximumEntries)
            self.busyTimeout = busyTimeout
            self.integrityCheck = integrityCheck
        }
    }

    /// The default file for `origin`: `$XDG_CACHE_HOME/rider/<origin folder>/users.sqlite`, one
    /// cache per server so users of different servers never mix.
    /// - Parameters:
    ///   - origin: the server origin (`https://api.example.com`).
    ///   - directories: the XDG folders.
    /// - Returns: the file URL.
    public static func defaultFile(forOrigin origin: String, in directories: XDGDirectories) -> URL {
        directories.cacheFolder(forOrigin: origin).appendingPathComponent("users.sqlite")
    }
}
