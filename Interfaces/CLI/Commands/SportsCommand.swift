import ArgumentParser

/// `rider sports`: groups the commands about the sport catalogue and your own sports.
struct SportsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sports",
        abstract: "List the sports the server knows, and the ones you ride with your level.",
        discussion: """
            Examples:
              rider sports list
              rider sports add gravel --level intermediate
              rider sports mine
              rider sports remove gravel
            """,
        subcommands: [SportsListCommand.self, SportsMineCommand.self, SportsAddCommand.self, SportsRemoveCommand.self],
        defaultSubcommand: SportsMineCommand.self
    )
}
