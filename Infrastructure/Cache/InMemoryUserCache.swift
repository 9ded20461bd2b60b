import Foundation
import RiderDomain

/// Users seen during this process, searchable like the persistent cache.
public actor InMemoryUserCache: UserCache {
    private var entries: [UserID: Cached<User>] = [:]

    public init() {}

    public func user(id: UserID) async throws -> Cached<User>? { entries[id] }

    public func store(_ users: [User], at date: Date) async throws {
        for user in users { entries[user.id] = Cached(value: user, storedAt: date) }
    }

    public func search(_ query: String, page: PageRequest) async throws -> UserPage {
        let terms = UserSearchText.words(in: query)
        let matches = entries.values.map(\.value)
            .filter { UserSearchText.matches(terms, user: $0) }
            .sorted { ($0.displayName.lowercased(), $0.id.rawValue) < ($1.displayName.lowercased(), $1.id.rawValue) }
        let start = min((page.page - 1) * page.limit, matches.count)
        let end = min(start + page.limit, matches.count)
        return UserPage(users: Array(matches[start..<end]), total: matches.count, page: page.page,
                        limit: page.limit, hasNext: end < matches.count)
    }

    public func removeAll() async throws { entries.removeAll() }
}
