import ArgumentParser
import RiderKit

/// `rider cache clear`: empties the user cache of the configured server.
struct CacheClearCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Remove every cached user (the session is kept).",
        discussion: """
            Nothing is lost: the server has every user, and the cache fills again as you search. \
            The file is compacted so removed users leave the disk too.

            Example:
              rider cache clear
            """
    )

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        let context = try CommandContext(global)
        let account = try await context.rider.accounts.current()?.displayName
        let removed = try await context.rider.cache.clear()
        let output = CacheClearOutput(removed: removed, location: try await context.rider.cache.statistics().location,
                                      account: account)
        try context.print(json: output, lines: [output.line])
    }
}
