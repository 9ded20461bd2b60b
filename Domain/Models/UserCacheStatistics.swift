import Foundation

/// What a ``UserCache`` holds and how well it has served, for `rider cache stats`.
public struct UserCacheStatistics: Hashable, Sendable {
    /// How many users are cached.
    public var entries: Int
    /// The most users kept before the least recently used are evicted.
    public var maximumEntries: Int
    /// Bytes on disk (database and write-ahead log); 0 for a cache in memory.
    public var sizeOnDisk: Int64
    /// When the least recently stored entry was stored; `nil` when empty.
    public var oldestStoredAt: Date?
    /// Lookups by id that found an entry.
    public var hits: Int
    /// Lookups by id that found nothing.
    public var misses: Int
    /// Where the cache lives, for people (a file path, or "memory").
    public var location: String

    public init(entries: Int, maximumEntries: Int, sizeOnDisk: Int64, oldestStoredAt: Date?, hits: Int,
                misses: Int, location: String) {
        self.entries = entries
        self.maximumEntries = maximumEntries
        self.sizeOnDisk = sizeOnDisk
        self.oldestStoredAt = oldestStoredAt
        self.hits = hits
        self.misses = misses
        self.location = location
    }
}
