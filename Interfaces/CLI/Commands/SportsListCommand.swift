import ArgumentParser
import RiderKit

/// `rider sports list`: the server's sport catalogue.
struct SportsListCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List every sport the server knows: id and name.",
        discussion: """
            Needs no login. Use an id with `rider sports add`.

            Example:
              rider sports list --json
            """
    )

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        let context = try CommandContext(global)
        let catalogue = try await context.rider.sports.catalogue()
        let output = SportListOutput(catalogue.value)
        try context.print(json: output, lines: output.lines)
    }
}
