import Foundation
import RiderDomain
import Synchronization

/// Users seen during this process, searchable like the persistent cache.
///
/// The fake for tests of other layers and the cache of `RiderKit.inMemory()`. Follows the same
/// rules as ``SQLiteUserCache``: least-recently-used eviction past `maximumEntries`, entity tags
/// kept only while the fields are unchanged, hit and miss counts.
///
/// A class behind a lock rather than an actor: every operation is a few dictionary steps, and an
/// actor makes concurrent requests that store their answers queue behind one another and be
/// rescheduled, where a lock held for microseconds lets each carry on on its own thread.
public final class InMemoryUserCache: UserCache, Sendable {
    private struct Entry {
        var cached: Cached<User>
        var lastUsed: UInt64
        /// When the user was first stored: search's order within a group, as in SQLite.
        var firstStored: UInt64
    }

    private struct State {
        var entries: [UserID: Entry] = [:]
        var useCounter: UInt64 = 0
        var hits = 0
        var misses = 0

        mutating func nextUse() -> UInt64 {
            useCounter += 1
            return useCounter
        }

        mutating func put(_ user: User, entityTag: EntityTag?, at date: Date) {
            let use = nextUse()
            entries[user.id] = Entry(cached: Cached(value: user, storedAt: date, entityTag: entityTag), lastUsed: use,
                                     firstStored: entries[user.id]?.firstStored ?? use)
        }

        mutating func evict(keeping maximumEntries: Int) {
            let excess = entries.count - maximumEntries
            guard excess > 0 else { return }
            for (id, _) in entries.sorted(by: { $0.value.lastUsed < $1.value.lastUsed }).prefix(excess) {
                entries[id] = nil
            }
        }
    }

    private let maximumEntries: Int
    private let state = Mutex(State())

    /// - Parameter maximumEntries: how many users to keep before evicting the least recently used.
    public init(maximumEntries: Int = SQLiteUserCache.Configuration.defaultMaximumEntries) {
        self.maximumEntries = max(1, maximumEntries)
    }

    public func user(id: UserID) async throws -> Cached<User>? {
        state.withLock { state in
            guard var entry = state.entries[id] else {
                state.misses += 1
                return nil
            }
            state.hits += 1
            entry.lastUsed = state.nextUse()
            state.entries[id] = entry
            return entry.cached
        }
    }

    public func store(_ users: [User], at date: Date) async throws {
        state.withLock { state in
            for user in users {
                let keptTag = state.entries[user.id].flatMap { $0.cached.value == user ? $0.cached.entityTag : nil }
                state.put(user, entityTag: keptTag, at: date)
            }
            state.evict(keeping: maximumEntries)
        }
    }

    public func store(_ user: User, entityTag: EntityTag?, at date: Date) async throws {
        state.withLock { state in
            state.put(user, entityTag: entityTag, at: date)
            state.evict(keeping: maximumEntries)
        }
    }

    public func markRevalidated(id: UserID, at date: Date) async throws {
        state.withLock { state in
            guard var entry = state.entries[id] else { return }
            entry.cached.storedAt = date
            entry.lastUsed = state.nextUse()
            state.entries[id] = entry
        }
    }

    public func remove(id: UserID) async throws {
        _ = state.withLock { $0.entries.removeValue(forKey: id) }
    }

    public func search(_ query: String, page: PageRequest) async throws -> UserPage {
        let terms = UserSearchText.words(in: query)
        let entries = state.withLock { Array($0.entries.values) }
        // SQLiteUserCache's order: users whose display name matches every word first, then those
        // found through the email, each group in the order the users were first stored.
        let matches = entries
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
        state.withLock { state in
            UserCacheStatistics(entries: state.entries.count, maximumEntries: maximumEntries, sizeOnDisk: 0,
                                oldestStoredAt: state.entries.values.map(\.cached.storedAt).min(), hits: state.hits,
                                misses: state.misses, location: "memory (this process only)")
        }
    }

    public func removeAll() async throws {
        state.withLock { state in
            state.entries.removeAll()
            state.hits = 0
            state.misses = 0
        }
    }
}
