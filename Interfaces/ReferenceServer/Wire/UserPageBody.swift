/// The contract's `UserPage`.
struct UserPageBody: Encodable, Sendable {
    let users: [UserBody]
    let total: Int
    let page: Int
    let limit: Int
    let hasNext: Bool

    init(users: [ReferenceUser], total: Int, page: Pagination) {
        self.users = users.map(UserBody.init)
        self.total = total
        self.page = page.page
        self.limit = page.limit
        // Multiplying could overflow for absurd page numbers; those pages are empty anyway.
        let (end, overflow) = page.page.multipliedReportingOverflow(by: page.limit)
        self.hasNext = !overflow && end < total
    }

    enum CodingKeys: String, CodingKey {
        case users, total, page, limit
        case hasNext = "has_next"
    }
}
