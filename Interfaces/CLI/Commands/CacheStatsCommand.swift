import ArgumentParser
import RiderKit

/// `rider cache stats`: what the user cache holds; the server is not contacted.
struct CacheStatsCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show the user cache: entries, size on disk, oldest entry, hits and misses.",
        discussion: """
            Reads the cache only; the server is not contacted.

            Example:
              rider cache stats --json
            """
    )

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        let context = try CommandContext(global)
        let account = try await context.rider.accounts.current()?.displayName
        let output = CacheStatisticsOutput(try await context.rider.cache.statistics(), server: context.server,
                                           account: account)
        try context.print(json: output, lines: output.lines(now: context.now))
    }
}
