import ArgumentParser

/// `rider session`: groups the commands about the stored session.
struct SessionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session",
        abstract: "Inspect or renew the stored session.",
        discussion: """
            Tokens are never printed, not even with --json or --verbose — except by \
            `rider session token`, which exists to hand one to a script.

            Examples:
              rider session show
              rider session refresh
              rider session token
            """,
        subcommands: [SessionShowCommand.self, SessionRefreshCommand.self, SessionTokenCommand.self],
        defaultSubcommand: SessionShowCommand.self
    )
}
