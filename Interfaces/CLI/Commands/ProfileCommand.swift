import ArgumentParser

/// `rider profile`: groups the commands about your own rider profile.
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Show or edit your rider profile.",
        discussion: """
            Examples:
              rider profile show
              rider profile update --type mentor --description "Gravel on weekends"
            """,
        subcommands: [ProfileShowCommand.self, ProfileUpdateCommand.self],
        defaultSubcommand: ProfileShowCommand.self
    )
}
