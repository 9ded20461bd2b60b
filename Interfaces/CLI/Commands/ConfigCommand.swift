import ArgumentParser
import RiderKit

/// `rider config`: groups the commands that read and edit the config file.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show or edit the settings in the config file.",
        discussion: """
            The config file is $XDG_CONFIG_HOME/rider/config.json (~/.config/rider/config.json \
            when XDG_CONFIG_HOME is unset), or the file RIDER_CONFIG names. It is a JSON object \
            such as {"base_url": "https://api.example.com", "timeout": 20}. Each setting can also \
            come from an environment variable (RIDER_ and the key in capitals, e.g. \
            RIDER_TIMEOUT), which wins over the file; --server wins over both for base_url.

            `rider config set` checks the value before writing, keeps every other key, and \
            writes the file privately (folder 0700, file 0600) in one rename; it never replaces \
            a file it cannot parse. client_secret is never printed and never taken from the \
            command line.

            Examples:
              rider config show
              rider config get base_url
              rider config set base_url https://api.example.com
              rider config set timeout 30
              printf '%s' "$SECRET" | rider config set client_secret --value-stdin
              rider config unset timeout
            """,
        subcommands: [ConfigShowCommand.self, ConfigGetCommand.self, ConfigSetCommand.self, ConfigUnsetCommand.self],
        defaultSubcommand: ConfigShowCommand.self
    )
}
