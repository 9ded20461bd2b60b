import Foundation
import RiderKit

/// One page of search results: a header with the totals, then one aligned line per user.
struct UserPageOutput: Encodable, Sendable {
    let query: String
    let total: Int
    let page: Int
    let limit: Int
    let hasNext: Bool
    let users: [UserOutput]

    enum CodingKeys: String, CodingKey {
        case query, total, page, limit, users
        case hasNext = "has_next"
    }

    init(_ page: UserPage, query: String) {
        self.query = query
        total = page.total
        self.page = page.page
        limit = page.limit
        hasNext = page.hasNext
        users = page.users.map(UserOutput.init)
    }

    var lines: [String] {
        let pages = max(1, (total + max(limit, 1) - 1) / max(limit, 1))
        let noun = total == 1 ? "user" : "users"
        var header = "total \(total) \(noun) for \"\(query)\" · page \(page) of \(pages) · \(limit) per page"
        if hasNext { header += " · next: --page \(page + 1)" }
        guard !users.isEmpty else { return [header] }
        return [header] + HumanFormat.columns(users.map(\.row))
    }
}
