import RiderKit

/// One page of `rider users list`: a header with the totals, then one aligned line per user.
struct UserListOutput: Encodable, Sendable {
    let total: Int
    let page: Int
    let limit: Int
    let hasNext: Bool
    let users: [UserOutput]

    init(_ page: UserPage) {
        total = page.total
        self.page = page.page
        limit = page.limit
        hasNext = page.hasNext
        users = page.users.map(UserOutput.init)
    }

    /// The lines scripts read when stdout is not a terminal.
    var lines: [String] { lines(on: TerminalOutput(color: .never, isTerminal: false)) }

    /// The header (bold on a styled terminal), then the users: plain aligned lines, or a table
    /// with column titles on a terminal.
    func lines(on terminal: TerminalOutput) -> [String] {
        let pages = max(1, (total + max(limit, 1) - 1) / max(limit, 1))
        var header = "total \(total) \(total == 1 ? "user" : "users") · page \(page) of \(pages) · \(limit) per page"
        if hasNext { header += " · next: --page \(page + 1)" }
        return [terminal.style.bold(header)] + UserOutput.listing(users, on: terminal)
    }
}
