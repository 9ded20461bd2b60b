import ArgumentParser
import RiderKit

/// `rider sports mine`: the sports you ride, with your level.
struct SportsMineCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "mine",
        abstract: "List the sports you ride, with your level in each.",
        discussion: """
            Example:
              rider sports mine --json
            """
    )

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        let context = try CommandContext(global)
        let output = RiderSportListOutput(try await context.rider.sports.mine())
        try context.print(json: output, lines: output.lines)
    }
}
