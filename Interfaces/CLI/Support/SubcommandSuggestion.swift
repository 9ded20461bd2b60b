import ArgumentParser
import RiderKit

/// Finds a mistyped subcommand (`rider logn`, `rider session lst`, `rider help sesion`) and names
/// the one meant, as git does: swift-argument-parser says "Did you mean" for flags only, and a
/// group with a default subcommand reads the typo as an argument of that default, printing its
/// usage instead.
enum SubcommandSuggestion {
    /// A usage error for the first word of `arguments` (before any option) that names no
    /// subcommand where one is expected, with the nearest names; `nil` when the words are all
    /// subcommands, or one is far from every name (a real argument, such as a search term).
    static func error(for arguments: [String], root: any ParsableCommand.Type = RiderCommand.self) -> CLIError? {
        var words = arguments.prefix { !$0.hasPrefix("-") }[...]
        // `rider help WORDS…` walks the same tree.
        if words.first == "help" { words = words.dropFirst() }
        var command = root
        var path = [name(of: root)]
        for word in words {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty else { return nil }
            if let next = subcommands.first(where: { names(of: $0).contains(word) }) {
                command = next
                path.append(name(of: next))
                continue
            }
            guard let nearest = nearest(to: word, among: subcommands.map(name(of:))) else { return nil }
            // Under a group with a default subcommand the word may be that one's argument: only a
            // near miss is taken for a typo there.
            if command.configuration.defaultSubcommand != nil, nearest.distance > 1 { return nil }
            let list = nearest.names.map { "`\(path.joined(separator: " ")) \($0)`" }.joined(separator: " or ")
            return .usage("'\(word)' is not a subcommand of `\(path.joined(separator: " "))`. Did you mean \(list)?")
        }
        return nil
    }

    private static func name(of command: any ParsableCommand.Type) -> String {
        command.configuration.commandName ?? command._commandName
    }

    private static func names(of command: any ParsableCommand.Type) -> [String] {
        [name(of: command)] + command.configuration.aliases
    }

    /// The names `word` abbreviates (distance 0), else those within two edits of it (one for a
    /// short word), nearest first; `nil` when none is that near.
    private static func nearest(to word: String, among names: [String]) -> (names: [String], distance: Int)? {
        let prefixed = names.filter { word.count >= 2 && $0.hasPrefix(word) }
        if !prefixed.isEmpty { return (prefixed, 0) }
        let scored = names.map { (name: $0, distance: editDistance(word, $0)) }
        guard let best = scored.map(\.distance).min(), best <= min(2, max(1, word.count / 3)) else { return nil }
        return (scored.filter { $0.distance == best }.map(\.name), best)
    }

    /// Damerau–Levenshtein (optimal string alignment): a swap of two letters is one edit.
    static func editDistance(_ a: String, _ b: String) -> Int {
        EditDistance.between(a, b)
    }
}
