import ArgumentParser
import Foundation
@testable import RiderCLI
import RiderKit
import Testing

@Suite("CLI help: every command documents itself")
struct CommandHelpTests {
    /// Every command under `rider`, with its path (`["users", "search"]`).
    private static func commands(under command: any ParsableCommand.Type = RiderCommand.self,
                                 path: [String] = []) -> [(path: [String], type: any ParsableCommand.Type)] {
        command.configuration.subcommands.flatMap { sub in
            let subPath = path + [sub.configuration.commandName ?? "?"]
            return [(subPath, sub)] + commands(under: sub, path: subPath)
        }
    }

    @Test("every command and command group has an abstract and a discussion with an Examples block")
    func everyCommandHasAbstractAndExamples() {
        let all = Self.commands()
        #expect(all.count >= 35, "the walk found the whole tree: \(all.map { $0.path.joined(separator: " ") })")
        for (path, type) in [([], RiderCommand.self)] + all {
            let name = (["rider"] + path).joined(separator: " ")
            #expect(!type.configuration.abstract.isEmpty, "\(name) has no abstract")
            #expect(type.configuration.discussion.contains("Example"), "\(name) has no Examples block")
            #expect(type.configuration.discussion.contains("rider "), "\(name)'s examples show no invocation")
        }
    }

    @Test("every argument and option of every command has a help text")
    func everyArgumentHasHelp() throws {
        // ArgumentParser's own description of the tree (`--experimental-dump-help`), so nothing is guessed from layout.
        let dump = try #require(try JSONSerialization.jsonObject(with: Data(RiderCommand._dumpHelp().utf8)) as? [String: Any])
        var missing: [String] = []
        var checked = 0
        func walk(_ command: [String: Any], _ path: String) {
            for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["shouldDisplay"] as? Bool ?? true {
                checked += 1
                if (argument["abstract"] as? String ?? "").isEmpty {
                    missing.append("\(path) \(argument["valueName"] as? String ?? "?")")
                }
            }
            // ArgumentParser's own `help` command is not ours to document.
            for sub in command["subcommands"] as? [[String: Any]] ?? [] where sub["commandName"] as? String != "help" {
                walk(sub, path + " " + (sub["commandName"] as? String ?? "?"))
            }
        }
        walk(try #require(dump["command"] as? [String: Any]), "rider")
        #expect(checked > 100, "the dump lists the options")
        #expect(missing.isEmpty, "arguments without help: \(missing)")
    }

    @Test("at 80 columns no help breaks a command: no `…` span and no example line is split across lines")
    func examplesNeverBreakInsideACommand() {
        var broken: [String] = []
        for (path, type) in [([], RiderCommand.self)] + Self.commands() {
            let name = (["rider"] + path).joined(separator: " ")
            let lines = type.helpMessage(columns: 80).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() {
                // A command in backquotes opens and closes on one line.
                if line.filter({ $0 == "`" }).count % 2 == 1 { broken.append("\(name): \(line)") }
                // An example (indented) runs on into an unindented line only when it was wrapped.
                let next = index + 1 < lines.count ? lines[index + 1] : ""
                if line.hasPrefix("  "), !line.hasSuffix("\\"), line.trimmingCharacters(in: .whitespaces).hasPrefix("rider")
                    || line.hasPrefix("  RIDER_"), let first = next.first, !first.isWhitespace, !next.hasSuffix(":") {
                    broken.append("\(name): \(line) ⏎ \(next)")
                }
            }
        }
        #expect(broken.isEmpty, "help lines broken inside a command:\n\(broken.joined(separator: "\n"))")
    }

    @Test("the root help mentions --verbose, the config command and shell completions")
    func rootHelpMentionsTheEssentials() {
        let help = RiderCommand.helpMessage(columns: 200)
        #expect(help.contains("--verbose"))
        #expect(help.contains("config"))
        #expect(help.contains("--generate-completion-script"))
    }
}
