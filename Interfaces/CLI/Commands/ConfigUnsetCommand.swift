import ArgumentParser
import Foundation
import RiderKit

/// `rider config unset KEY`: removes a setting from the config file.
struct ConfigUnsetCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "unset",
        abstract: "Remove a setting from the config file, so its default applies again.",
        discussion: """
            Removes the key and keeps every other one.
            The file is written as `rider config set` writes it. A key rider does not know can \
            be removed too when the file has it (rider refuses to start while the file has \
            one). Removing a key the file does not have changes nothing and is not an error.

            Examples:
              rider config unset timeout
              rider config unset client_secret
            """
    )

    @Argument(help: ArgumentHelp("The setting to remove, e.g. timeout.", valueName: "key"),
              completion: .list(ConfigKey.names))
    var key: String

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        var document = try ConfigFileDocument(reading: ConfigFileDocument.location(environment: environment))
        // Known keys by their usual spelling; anything else only when the file has it verbatim.
        let name = ConfigKey.named(key)?.rawValue ?? key
        guard ConfigKey(rawValue: name) != nil || document.values[name] != nil else {
            throw ConfigError.unknownKey(key)
        }
        let removed = document.remove(name)
        if removed { try document.write() }
        let output = ConfigChangeOutput(action: removed ? "unset" : "unchanged", key: name, value: nil,
                                        file: document.file.path, unknownKeys: document.unknownKeys)
        try output.print(json: global.json)
    }
}
