import Foundation

/// One page of users, as the server paginates them (pages start at 1).
public struct UserPage: Hashable, Sendable {
    public var users: [User]
    public var total: Int
    public var page: Int
    public var limit: Int
    public var hasNext: Bool

    public init(users: [User], total: Int, page: Int, limit: Int, hasNext: Bool) {
        self.users = users
        self.total = total
        self.page = page
        self.limit = limit
        self.hasNext = hasNext
    }
}
