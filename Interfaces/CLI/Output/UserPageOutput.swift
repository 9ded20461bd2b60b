import Foundation
import RiderKit

/// One page of search results: a header with the totals, then one aligned line per user. A page
/// answered from the cache says so in a ``notice`` for standard error, so standard output stays
/// the header and then the rows, as scripts read it.
struct UserPageOutput: Encodable, Sendable {
    let query: String
    let total: Int
    let page: Int
    let limit: Int
    let hasNext: Bool
    let users: [UserOutput]
    let cache: CacheInfoOutput

    init(_ page: UserPage, query: String, now: Date) {
        self.query = query
        total = page.total
        self.page = page.page
        limit = page.limit
        hasNext = page.hasNext
        users = page.users.map(UserOutput.init)
        let fromCache = !page.source.isFromServer
        cache = CacheInfoOutput(source: page.source, storedAt: page.oldestStoredAt, stale: fromCache, now: now)
    }

    /// The lines scripts read when stdout is not a terminal.
    var lines: [String] { lines(on: TerminalOutput(color: .never, isTerminal: false)) }

    /// The header (bold on a styled terminal), then the users: plain aligned lines, or a table
    /// with column titles on a terminal.
    func lines(on terminal: TerminalOutput) -> [String] {
        let pages = max(1, (total + max(limit, 1) - 1) / max(limit, 1))
        let noun = total == 1 ? "user" : "users"
        var header = "total \(total) \(noun) for \"\(query.terminalSafe)\" · page \(page) of \(pages) · \(limit) per page"
        if hasNext { header += " · next: --page \(page + 1)" }
        let lines = [terminal.style.bold(header)]
        guard !users.isEmpty else { return lines }
        return lines + UserOutput.listing(users, on: terminal)
    }

    /// Says plainly when the page did not come from the server: for standard error.
    var notice: String? {
        let oldest = cache.ageSeconds.map { " (oldest entry stored \(HumanFormat.duration(TimeInterval($0))) ago)" } ?? ""
        switch cache.source {
        case "offline":
            let reason = cache.offlineReason?.terminalSafe ?? "The server could not be reached."
            return "OFFLINE: \(reason) Showing results from the local cache; they may be stale or incomplete\(oldest)."
        case "cache":
            return "From the local cache, not the server; results may be stale or incomplete\(oldest)."
        default:
            return nil
        }
    }
}
