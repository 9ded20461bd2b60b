import RiderKit

/// Prints the `rider config` commands' results, which need no server and so no ``CommandContext``.
enum ConfigOutput {
    /// `json` with --json, else the human-readable `lines` (made terminal-safe by ``Console``).
    /// - Parameter style: the style `lines` were rendered with, whose escapes are kept.
    /// - Throws: ``RiderError/malformedResponse(_:underlying:)`` when the result cannot be written as JSON.
    static func print(_ output: some Encodable, json: Bool, style: TextStyle = .plain,
                      lines: @autoclosure () -> [String]) throws {
        guard json else {
            Console.standardOutput(lines: lines(), style: style)
            return
        }
        guard let text = JSONOutput.string(output) else {
            throw RiderError.malformedResponse("the result cannot be written as JSON")
        }
        Console.standardOutput(json: text)
    }
}
