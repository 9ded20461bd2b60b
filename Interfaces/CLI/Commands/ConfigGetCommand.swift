import ArgumentParser
import Foundation
import RiderKit

/// `rider config get KEY`: one setting's effective value, for scripts (as `git config --get`).
struct ConfigGetCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print one setting's effective value.",
        discussion: """
            Prints the value in effect for KEY (from --server or --issuer, a RIDER_ variable, \
            the config file or RiderKit's default, as `rider config show` lists it) alone on a \
            line, for scripts. Exits 1 when nothing sets it and it has no default. client_secret \
            is never printed: asking for it says only whether it is set. With --json: the \
            setting as `rider config show --json` gives it.

            Examples:
              rider config get base_url
              timeout=$(rider config get timeout)
            """
    )

    @Argument(help: ArgumentHelp("The setting, as `rider config show` names it.", valueName: "key"),
              completion: .list(ConfigKey.names))
    var key: String

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        guard let setting = ConfigKey.named(key) else { throw ConfigError.unknownKey(key) }
        let environment = ProcessInfo.processInfo.environment
        let document = try ConfigFileDocument(reading: ConfigFileDocument.location(environment: environment))
        let shown = ConfigShowOutput(document, environment: environment, server: global.server, issuer: global.issuer)
        guard let output = shown.settings.first(where: { $0.key == setting.rawValue }) else {
            throw ConfigError.unknownKey(key)
        }
        if global.json {
            try ConfigOutput.print(output, json: true, style: .plain, lines: [])
            return
        }
        guard output.set else { throw ConfigError.notSet(key: setting.rawValue) }
        guard let value = output.value else {
            // A secret: its value never reaches a terminal, a pipe or a log.
            Console.standardError("\(setting.rawValue) is set; its value is never printed.")
            return
        }
        Console.standardOutput(lines: [value])
    }
}
