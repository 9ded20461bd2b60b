import Foundation

/// Remembers users seen on the server, for offline use and quick lookups.
///
/// Holds only what the server shows other members; never tokens or passwords. Entries are
/// derived data: an adapter may drop them (eviction, recovery from a damaged file) at any time.
public protocol UserCache: Sendable {
    /// Looks a user up and counts a hit or a miss; a hit marks the entry recently used.
    /// - Returns: the cached user (``DataSource/cache``, not stale) with when it was stored, or `nil`.
    /// - Throws: ``RiderError/storage(_:underlying:)``.
    func user(id: UserID) async throws -> Cached<User>?

    /// Inserts or replaces users, stamping them with `date`. An entry whose fields did not
    /// change keeps its entity tag; a changed one loses it.
    /// - Throws: ``RiderError/storage(_:underlying:)``.
    func store(_ users: [User], at date: Date) async throws

    /// Inserts or replaces one user downloaded with its entity tag.
    /// - Throws: ``RiderError/storage(_:underlying:)``.
    func store(_ user: User, entityTag: EntityTag?, at date: Date) async throws

    /// Records that the server confirmed the cached user unchanged (`304`) at `date`.
    /// - Throws: ``RiderError/storage(_:underlying:)``.
    func markRevalidated(id: UserID, at date: Date) async throws

    /// Forgets one user (the server said it no longer exists).
    /// - Throws: ``RiderError/storage(_:underlying:)``.
    func remove(id: UserID) async throws

    /// Searches cached users by name or email (case- and diacritic-insensitive prefixes).
    /// - Returns: a page with ``DataSource/cache`` as its source.
    /// - Throws: ``RiderError/storage(_:underlying:)``.
    func search(_ query: String, page: PageRequest) async throws -> UserPage

    /// What the cache holds and its hit and miss counts.
    /// - Throws: ``RiderError/storage(_:underlying:)``.
    func statistics() async throws -> UserCacheStatistics

    /// Forgets every cached user and resets the counts.
    /// - Throws: ``RiderError/storage(_:underlying:)``.
    func removeAll() async throws

    /// Writes now what the adapter holds back to write in a batch (stored users, the recency of
    /// lookups). An adapter that writes at once does nothing.
    /// - Throws: ``RiderError/storage(_:underlying:)``.
    func flush() async throws

    /// Writes what is held back and lets go of any file; the next call opens it again. Call it
    /// when done, for example before the process exits.
    func close() async
}

extension UserCache {
    /// Nothing is held back.
    public func flush() async throws {}

    /// Writes what is held back; nothing else to let go of.
    public func close() async { try? await flush() }
}
