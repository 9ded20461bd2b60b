import ArgumentParser

/// `rider session`: groups the commands about the stored session.
struct SessionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session",
        abstract: "Inspect or renew the stored session.",
        discussion: """
            Tokens are never printed, not even with --json or --verbose.

            Examples:
              rider session show
              rider session refresh
            """,
        subcommands: [SessionShowCommand.self, SessionRefreshCommand.self],
        defaultSubcommand: SessionShowCommand.self
    )
}
