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
              rider profile location --set -33.9249,18.4241 --name "Cape Town"
              rider profile avatar ~/Pictures/me.jpg
              rider profile preferences --newsletter off
            """,
        subcommands: [ProfileShowCommand.self, ProfileUpdateCommand.self, ProfileAvatarCommand.self,
                      ProfileLocationCommand.self, ProfilePreferencesCommand.self],
        defaultSubcommand: ProfileShowCommand.self
    )
}
