import ArgumentParser

/// `rider provider`: groups the commands about the OAuth provider (the issuer).
struct ProviderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "provider",
        abstract: "Show what the OAuth provider (the issuer) says about itself.",
        discussion: """
            Examples:
              rider --issuer https://id.example.com provider show
              rider provider show --reload --json
            """,
        subcommands: [ProviderShowCommand.self],
        defaultSubcommand: ProviderShowCommand.self
    )
}
