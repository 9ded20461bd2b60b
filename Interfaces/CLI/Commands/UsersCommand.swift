import ArgumentParser

/// `rider users`: groups the commands that look up other riders.
struct UsersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Find other riders.",
        discussion: """
            Examples:
              rider users search jose --limit 5
              rider users show u_000042
              rider users list --all
            """,
        subcommands: [UsersSearchCommand.self, UsersShowCommand.self, UsersListCommand.self]
    )
}
