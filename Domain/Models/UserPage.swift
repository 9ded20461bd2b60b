import Foundation

/// One page of users, as the server paginates them (pages start at 1).
///
/// A page answered from the local cache says so in ``source`` and carries the age of its
/// oldest entry; it holds only users this machine has seen, so it may be incomplete.
public struct UserPage: Hashable, Sendable {
    public var users: [User]
    public var total: Int
    public var page: Int
    public var limit: Int
    public var hasNext: Bool
    /// Where the page came from: ``DataSource/network`` unless it was read from the cache.
    public var source: DataSource
    /// For a page read from the cache, when its oldest user was stored; `nil` otherwise.
    public var oldestStoredAt: Date?

    public init(users: [User], total: Int, page: Int, limit: Int, hasNext: Bool,
                source: DataSource = .network, oldestStoredAt: Date? = nil) {
        self.users = users
        self.total = total
        self.page = page
        self.limit = limit
        self.hasNext = hasNext
        self.source = source
        self.oldestStoredAt = oldestStoredAt
    }
}
