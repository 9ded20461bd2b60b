import ArgumentParser

/// `rider account`: groups the commands about your account as a whole.
struct AccountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "Manage your account as a whole.",
        discussion: """
            Example:
              rider account delete
            """,
        subcommands: [AccountDeleteCommand.self]
    )
}
