import ArgumentParser
import Foundation
@testable import RiderCLI
import Testing

/// `rider --json whoami`: global options written before the subcommand reach it, every one of
/// them — read off the options' own help, so one added later is covered without a thought.
@Suite("CLI global options before the subcommand")
struct GlobalOptionsHoistingTests {
    /// Each global option's name, and whether it takes a value, as `GlobalOptions`' help lists them.
    static var options: [(name: String, valued: Bool)] {
        GlobalOptions.helpMessage(columns: 400).split(separator: "\n").compactMap { line in
            let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ")
            guard let first = words.first, first.hasPrefix("--"), first != "--help" else { return nil }
            return (String(first), words.count > 1 && words[1].hasPrefix("<"))
        }
    }

    @Test("every global option, with its value, moves after the subcommand; what follows -- stays put")
    func everyOptionIsHoisted() {
        #expect(Self.options.count >= 9, "\(Self.options)")
        for (name, valued) in Self.options {
            let given = valued ? [name, "v", "whoami"] : [name, "whoami"]
            let expected = valued ? ["whoami", name, "v"] : ["whoami", name]
            #expect(GlobalOptions.hoisted(given) == expected, "\(name)")
            if valued {
                #expect(GlobalOptions.hoisted(["\(name)=v", "session", "list"]) == ["session", "list", "\(name)=v"])
            }
        }
        #expect(GlobalOptions.hoisted(["--json", "request", "--", "--verbose"]) == ["request", "--json", "--", "--verbose"])
    }

    @Test("rider --resource URL whoami parses as rider whoami --resource URL")
    func resourceBeforeTheSubcommand() throws {
        let command = try RiderCommand.parseAsRoot(GlobalOptions.hoisted(["--resource", "https://api.example.com/", "whoami"]))
        let whoami = try #require(command as? WhoamiCommand)
        #expect(whoami.global.resource == "https://api.example.com/")
    }
}
