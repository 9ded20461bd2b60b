import ArgumentParser
import Foundation
import RiderKit

/// `rider users list [--all]`: every rider by id, one page or all of them streamed.
struct UsersListCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List riders by id: one page, or every page with --all.",
        discussion: """
            Prints a header with the total and the page, then one line per rider: id, display \
            name, email, type; on a terminal as a table with column titles (see `rider users \
            search --help`). With --all, pages are fetched one after the other and each rider \
            is printed as soon as its page arrives (no header), so the output starts at once and \
            memory stays flat however many riders there are; with --json, --all prints one JSON \
            object per line (JSON Lines). Riders listed are remembered in the local cache.

            Examples:
              rider users list --page 2 --limit 50
              rider users list --all --json | wc -l
            """
    )

    @Option(help: "Which page to show, from 1 (not with --all).")
    var page = 1

    @Option(help: "How many riders per page (per request with --all), 1 to 100.")
    var limit: Int?

    @Flag(help: "Walk every page and stream all riders.")
    var all = false

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func validate() throws {
        guard page >= 1 else { throw ValidationError("--page must be 1 or more.") }
        if all && page != 1 { throw ValidationError("--page cannot be used with --all.") }
        if let limit, !(1...PageRequest.maximumLimit).contains(limit) {
            throw ValidationError("--limit must be between 1 and \(PageRequest.maximumLimit).")
        }
    }

    func run() async throws {
        let context = try CommandContext(global)
        guard all else {
            let result = try await context.rider.listUsers(page: try PageRequest(page: page, limit: limit ?? 20))
            let output = UserListOutput(result)
            let terminal = global.terminal
            try context.print(json: output, style: terminal.style, lines: output.lines(on: terminal))
            return
        }
        for try await page in try context.rider.listUsers.all(pageSize: limit ?? PageRequest.maximumLimit) {
            let users = page.users.map(UserOutput.init)
            if context.options.json {
                let lines = users.compactMap(JSONOutput.string)
                if lines.count != users.count { throw RiderError.malformedResponse("a user cannot be written as JSON") }
                if !lines.isEmpty { Console.standardOutput(json: lines.joined(separator: "\n")) }
            } else if !users.isEmpty {
                Console.standardOutput(lines: HumanFormat.columns(users.map(\.row)))
            }
        }
    }
}
