import Foundation
import RiderDomain

/// Users seen during this process, searchable like the persistent cache.
///
/// The fake for tests of other layers and the cache of `RiderKit.inMemory()`. Follows the same
/// rules as ``SQLiteUserCache``: least-recently-used eviction past `maximumEntries`, entity tags
/// kept only while the fields are unchanged, hit and miss counts.
public actor InMemoryUserCache: UserCache {
    private struct Entry {
        var cached: Cached<User>
        var lastUsed: UInt64
        /// When the user was first stored: search's order within a group, as in SQLite.
        var firstStored: UInt64
    }

    private let maximumEntries: Int
    private var entries: [UserID: Entry] = [:]
    private var useCounter: UInt64 = 0
    private var hits = 0
    private var misses = 0

    /// - Parameter maximumEntries: how many users to keep before evicting the least recently used.
    public init(maximumEntries: Int = SQLiteUserCache.Configuration.defaultMaximumEntries) {
        self.maximumEntries = max(1, maximumEntries)
    }

    public func user(id: UserID) async throws -> Cached<User>? {
        guard var entry = entries[id] else {
            misses += 1
            return nil
        }
        hits += 1
        entry.lastUsed = nextUse()
        entries[id] = entry
        return entry.cached
    }

    public func store(_ users: [User], at date: Date) async throws {
        for user in users {
            let keptTag = entries[user.id].flatMap { $0.cached.value == user ? $0.cached.entityTag : nil }
            put(user, entityTag: keptTag, at: date)
        }
        evict()
    }

    public func store(_ user: User, entityTag: EntityTag?, at date: Date) async throws {
        put(user, entityTag: entityTag, at: date)
        evict()
    }

    public func markRevalidated(id: UserID, at date: Date) async throws {
        entries[id]?.cached.storedAt = date
        entries[id]?.lastUsed = nextUse()
    }

    public func remove(id: UserID) async throws { entries[id] = nil }

    public func search(_ query: String, page: PageRequest) async throws -> UserPage {
        let terms = UserSearchText.words(in: query)
        // SQLiteUserCache's order: users whose display name matches every word first, then those
        // found through the email, each group in the order the users were first stored.
        let matches = entries.values
            .filter { UserSearchText.matches(terms, user: $0.cached.value) }
            .map { (entry: $0, inName: UserSearchText.matches(terms, in: $0.cached.value.displayName)) }
            .sorted { ($0.inName ? 0 : 1, $0.entry.firstStored) < ($1.inName ? 0 : 1, $1.entry.firstStored) }
            .map(\.entry.cached)
        let start = min((page.page - 1) * page.limit, matches.count)
        let end = min(start + page.limit, matches.count)
        let slice = matches[start..<end]
        return UserPage(users: slice.map(\.value), total: matches.count, page: page.page, limit: page.limit,
                        hasNext: end < matches.count, source: .cache, oldestStoredAt: slice.map(\.storedAt).min())
    }

    public func statistics() async throws -> UserCacheStatistics {
        UserCacheStatistics(entries: entries.count, maximumEntries: maximumEntries, sizeOnDisk: 0,
                            oldestStoredAt: entries.values.map(\.cached.storedAt).min(), hits: hits, misses: misses,
                            location: "memory (this process only)")
    }

    public func removeAll() async throws {
        entries.removeAll()
        hits = 0
        misses = 0
    }

    private func put(_ user: User, entityTag: EntityTag?, at date: Date) {
        let use = nextUse()
        entries[user.id] = Entry(cached: Cached(value: user, storedAt: date, entityTag: entityTag), lastUsed: use,
                                 firstStored: entries[user.id]?.firstStored ?? use)
    }

    private func evict() {
        let excess = entries.count - maximumEntries
        guard excess > 0 else { return }
        for (id, _) in entries.sorted(by: { $0.value.lastUsed < $1.value.lastUsed }).prefix(excess) {
            entries[id] = nil
        }
    }

    private func nextUse() -> UInt64 {
        useCounter += 1
        return useCounter
    }
}
