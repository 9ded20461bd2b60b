import ArgumentParser
import RiderKit

/// `rider sports add ID --level LEVEL`: adds a sport to yours, or changes your level in it.
struct SportsAddCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a sport to the ones you ride, or change your level in it.",
        discussion: """
            The id comes from `rider sports list`. An id the catalogue does not have exits with 5.

            Example:
              rider sports add gravel --level expert
            """
    )

    @Argument(help: ArgumentHelp("The sport's id, for example gravel.", valueName: "id"))
    var id: String

    @Option(help: "How well you ride it.")
    var level: SportLevelArgument

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func validate() throws {
        try SportIDArgument.validate(id, shownBy: "rider sports list")
    }

    func run() async throws {
        let context = try CommandContext(global)
        let sport = try await context.rider.sports.set(SportID(id), level: level.level)
        let output = RiderSportOutput(sport)
        let (name, sportID) = (output.name.terminalSafe, output.id.terminalSafe)
        try context.print(json: output, lines: ["Saved: \(name) (\(sportID)) at level \(output.level)."])
    }
}
