extension GlobalOptions {
    /// The global options that take a value (`--server URL`, `--server=URL`, `--color never`).
    private static let valued = ["--server", "--issuer", "--resource", "--account", "--record", "--replay", "--color"]

    /// Moves global options written before the subcommand (`rider --json whoami`) to where
    /// ArgumentParser looks for them (`rider whoami --json`), since it does not hand a parent's
    /// options down to its subcommands.
    static func hoisted(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--json" || argument == "--verbose" || valued.contains(where: { argument.hasPrefix($0 + "=") }) {
                leading.append(argument)
                index += 1
            } else if valued.contains(argument), index + 1 < arguments.endIndex {
                leading += arguments[index...(index + 1)]
                index += 2
            } else {
                break
            }
        }
        guard !leading.isEmpty, index < arguments.endIndex else { return arguments }
        var rest = Array(arguments[index...])
        // Options must stay in front of a `--`, after which everything is a plain argument.
        rest.insert(contentsOf: leading, at: rest.firstIndex(of: "--") ?? rest.endIndex)
        return rest
    }
}
