import ArgumentParser
import RiderKit
import Foundation

/// `rider config show`: every setting, its effective value and where it comes from.
struct ConfigShowCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show every setting: its effective value and where it comes from.",
        discussion: """
            Prints the config file's path, then one line per setting RiderKit reads: the key, \
            the value in effect and its source — `--server`, `--issuer`, `env RIDER_…` (an environment \
            variable), `file`, `default`, or `-` when nothing sets it. client_secret shows as \
            <redacted> when set; its value is never printed, not even with --json. A value \
            RiderKit would refuse (so every other command would exit 10) is listed after the \
            table with the reason, as are keys the file has that rider does not know. Needs no \
            server and makes no request.

            With --json: {"file": …, "file_exists": …, "settings": [{"key", "value", "set", \
            "secret", "source", "environment_variable", "problem"}], "unknown_keys": […]}.

            Examples:
              rider config show
              rider config show --json \\
                | jq -r '.settings[] | select(.source == "file") | .key'
            """
    )

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let document = try ConfigFileDocument(reading: ConfigFileDocument.location(environment: environment))
        let output = ConfigShowOutput(document, environment: environment, server: global.server,
                                      issuer: global.issuer)
        let terminal = global.terminal
        try ConfigOutput.print(output, json: global.json, style: terminal.style, lines: output.lines(on: terminal))
    }
}
