import ArgumentParser
import Foundation
import RiderKit

/// `rider users search`: finds riders by name or email.
struct UsersSearchCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search riders by name or email.",
        discussion: """
            Case and accents are ignored and every word must start a word of the name or the \
            email: "jose" finds "José García". Prints a header with the total and the page, then \
            one line per rider: id, display name, email, type. On a terminal the riders come as \
            a table with column titles (ID, NAME, EMAIL, TYPE), styled unless NO_COLOR is set, \
            TERM=dumb or --color never; piped, they are plain aligned lines without titles or \
            escapes, so `grep` and `cut` see clean lines. --json never changes.

            Results are remembered in the local cache. When the server cannot be reached, the \
            search answers from the cache instead and the line after the header starts with \
            OFFLINE (in --json: "cache": {"source": "offline", ...}). --policy cache-only \
            searches the cache without touching the network.

            Examples:
              rider users search jose --page 2 --limit 10
              rider users search "garcía" --json | jq -r '.users[].email'
              rider users search jo --policy cache-only --color never
            """
    )

    @Argument(help: ArgumentHelp("What to look for (1 to 100 characters).", valueName: "query"))
    var query: String

    @Option(help: "Which page to show, from 1.")
    var page = 1

    @Option(help: "How many riders per page, 1 to 100.")
    var limit = 20

    @Option(help: ArgumentHelp("How to combine the server and the local cache.", valueName: "policy"))
    var policy: CachePolicyArgument = .networkFirst

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func validate() throws {
        let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= SearchUsers.maximumQueryLength else {
            throw ValidationError("The query must be 1 to \(SearchUsers.maximumQueryLength) characters.")
        }
        guard page >= 1 else { throw ValidationError("--page must be 1 or more.") }
        guard (1...PageRequest.maximumLimit).contains(limit) else {
            throw ValidationError("--limit must be between 1 and \(PageRequest.maximumLimit).")
        }
    }

    func run() async throws {
        let context = try CommandContext(global)
        let result = try await context.rider.searchUsers(
            query, page: try PageRequest(page: page, limit: limit), policy: policy.policy)
        let output = UserPageOutput(result, query: query.trimmingCharacters(in: .whitespacesAndNewlines), now: context.now)
        let terminal = global.terminal
        // Beside the results, not among them: stdout is the header and the rows.
        if !global.json, let notice = output.notice { Console.standardError(notice) }
        try context.print(json: output, style: terminal.style, lines: output.lines(on: terminal))
        await context.rider.backgroundRefreshes.waitForAll()
    }
}
