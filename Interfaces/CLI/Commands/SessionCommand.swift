import ArgumentParser

/// `rider session`: groups the commands about the stored session.
struct SessionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session",
        abstract: "Inspect, switch or renew the stored sessions.",
        discussion: """
            Tokens are never printed, not even with --json or --verbose, except by the one \
            command that exists to hand one to a script: `rider session token`.

            A session belongs to a server and an account. Several can be stored side by side; \
            on each server one is active, and commands use it unless given --account (or \
            RIDER_ACCOUNT).

            Examples:
              rider session show
              rider session list
              rider session switch --account ana@example.com
              rider session refresh
              rider session token
            """,
        subcommands: [SessionShowCommand.self, SessionListCommand.self, SessionSwitchCommand.self,
                      SessionRefreshCommand.self, SessionTokenCommand.self],
        defaultSubcommand: SessionShowCommand.self
    )
}
