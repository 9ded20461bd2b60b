import Foundation
import RiderDomain

extension SQLiteUserCache {
    /// How thoroughly a file is checked when it is opened. Damage a check misses is still found
    /// by the first query that reads a damaged page (`SQLITE_CORRUPT`), and recovered from then.
    package enum IntegrityCheck: Hashable, Sendable {
        /// Only what opening and reading the schema find (not a database, newer schema).
        case none
        /// Also compares the page count in the file's header with the file's size, which catches
        /// a truncated file for the cost of reading 100 bytes; and when the last process to use
        /// the file ended without closing it (a crash), runs the full check once.
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
        package var busyTimeout: TimeInterval
        /// How the file is checked when opened; ``IntegrityCheck/header`` unless told.
        package var integrityCheck: IntegrityCheck
        /// How stored users are batched; ``WriteBehind/standard`` unless told.
        package var writeBehind: WriteBehind = .standard

        /// - Parameters:
        ///   - file: the database file.
        ///   - maximumEntries: how many users to keep (at least 1).
        public init(file: URL, maximumEntries: Int = defaultMaximumEntries) {
            self.init(file: file, maximumEntries: maximumEntries, integrityCheck: .header)
        }

        /// The same, with how long to wait for another process's write lock and how the file is
        /// checked when opened (the benchmarks and the recovery tests choose).
        package init(file: URL, maximumEntries: Int = defaultMaximumEntries, busyTimeout: TimeInterval = 10,
                     integrityCheck: IntegrityCheck) {
            self.file = file
            self.maximumEntries = max(1, maximumEntries)
            self.busyTimeout = busyTimeout
            self.integrityCheck = integrityCheck
        }
    }

    /// How long stored users (and the recency of lookups) wait to be written together: a burst
    /// of answers becomes one transaction instead of one each.
    package struct WriteBehind: Hashable, Sendable {
        /// The longest a stored user waits before its batch is written.
        package var delay: Duration
        /// A batch this big is written at once, whatever the delay.
        package var batchSize: Int

        /// Up to half a second, or 256 rows.
        package static let standard = WriteBehind(delay: .milliseconds(500), batchSize: 256)
        /// Every store is written before it returns (one transaction each), as before batching.
        package static let immediate = WriteBehind(delay: .zero, batchSize: 1)

        /// - Parameters:
        ///   - delay: the longest a stored user waits; zero writes each store before it returns.
        ///   - batchSize: the number of waiting rows that is written at once (at least 1).
        package init(delay: Duration, batchSize: Int) {
            self.delay = delay
            self.batchSize = max(1, batchSize)
        }
    }

    /// The default file for `origin`: `$XDG_CACHE_HOME/rider/<origin folder>/users.sqlite`, one
    /// cache per server so users of different servers never mix.
    /// - Parameters:
    ///   - origin: the server origin (`https://api.example.com`).
    ///   - directories: the XDG folders.
    /// - Returns: the file URL.
    package static func defaultFile(forOrigin origin: String, in directories: XDGDirectories) -> URL {
        directories.cacheFolder(forOrigin: origin).appendingPathComponent("users.sqlite")
    }
}
