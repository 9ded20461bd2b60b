import Foundation
@testable import RiderCLI
import Testing

/// A mistyped subcommand is named as such, with the one meant, wherever in the tree it is; a word
/// that is an argument (a search term under a group's default subcommand) is left alone.
@Suite("CLI: did you mean, for subcommands")
struct SubcommandSuggestionTests {
    @Test("near misses at the top, in a group, and after help name the subcommand meant",
          arguments: [(["logn"], "`rider login`"), (["sesion", "list"], "`rider session`"),
                      (["session", "lst"], "`rider session list`"), (["help", "sesion"], "`rider session`"),
                      (["vault", "stauts"], "`rider vault status`"), (["config", "gt", "timeout"], "`rider config get`"),
                      (["usres", "search", "jo"], "`rider users`")])
    func nearMisses(arguments: [String], meant: String) throws {
        let error = try #require(SubcommandSuggestion.error(for: arguments))
        #expect(error.localizedDescription.contains("Did you mean \(meant)"), "\(error.localizedDescription)")
    }

    @Test("real commands, arguments and options are not typos",
          arguments: [["login", "--email", "a@b.c"], ["users", "search", "jose"], ["session"], ["help"],
                      ["help", "session", "list"], ["config", "get", "timeout"], ["whoami", "--json"],
                      ["sports", "add", "mtb"], ["--server", "x", "whoami"]])
    func notTypos(arguments: [String]) {
        #expect(SubcommandSuggestion.error(for: arguments) == nil)
    }

    @Test("edit distance counts a swap of two letters as one edit")
    func distance() {
        #expect(SubcommandSuggestion.editDistance("stauts", "status") == 1)
        #expect(SubcommandSuggestion.editDistance("logn", "login") == 1)
        #expect(SubcommandSuggestion.editDistance("", "abc") == 3)
        #expect(SubcommandSuggestion.editDistance("jose", "show") > 2)
    }
}
