import ArgumentParser
import Foundation
import RiderKit

/// `rider cache check`: SQLite's full integrity check of the user cache, on demand.
struct CacheCheckCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check every page of the user cache file; move a damaged one aside and start empty.",
        discussion: """
            Opening the cache only checks the file's header (and runs this full check once after \
            a rider process ended without closing the file); damage elsewhere is found when a \
            query reads it. This runs SQLite's quick_check over every page now. A damaged file is \
            moved aside (users.sqlite.corrupt-<time>) and an empty cache started: it only holds \
            copies of what the server has. The server is not contacted.

            Example:
              rider cache check --json
            """
    )

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        let context = try CommandContext(global)
        let account = try await context.rider.accounts.current()?.displayName
        let movedAside = try await context.rider.checkCache()
        let statistics = try await context.rider.cache.statistics()
        let output = Output(location: statistics.location, account: account, sound: movedAside == nil,
                            movedAside: movedAside?.path)
        try context.print(json: output, lines: [output.line])
    }

    /// What `rider cache check` reports.
    struct Output: Encodable, Sendable {
        let location: String
        @Nullable var account: String?
        let sound: Bool
        /// Where the damaged file went, when it was damaged.
        @Nullable var movedAside: String?

        var line: String {
            let whose = account.map { " of \($0)" } ?? ""
            guard let movedAside else { return "The user cache\(whose) at \(location) is sound." }
            return "The user cache\(whose) at \(location) was damaged: it was moved aside to \(movedAside) and an "
                + "empty cache started. Nothing is lost: it only holds copies of what the server has."
        }
    }
}
