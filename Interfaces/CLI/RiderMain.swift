import ArgumentParser
import Foundation

/// The entry point: parses the command line itself so every failure gets the documented exit
/// code (ArgumentParser alone would exit 64 for a usage error and 1 for everything else).
@main
enum RiderMain {
    static func main() async {
        let arguments = GlobalOptions.hoisted(Array(CommandLine.arguments.dropFirst()))
        let command: any ParsableCommand
        do {
            command = try RiderCommand.parseAsRoot(arguments)
        } catch {
            // Parsing failed, so `--json` is only known from the raw arguments.
            exit(ErrorReport(json: arguments.contains("--json")).report(error))
        }
        let json = (command as? any GlobalOptionsCommand)?.global.json ?? false
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                var syncCommand = command
                try syncCommand.run()
            }
        } catch {
            exit(ErrorReport(json: json).report(error))
        }
        exit(ExitStatus.success.rawValue)
    }
}
