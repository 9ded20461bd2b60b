import ArgumentParser
import RiderKit

/// `rider sports remove ID`: removes a sport from yours.
struct SportsRemoveCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a sport from the ones you ride.",
        discussion: """
            Removing a sport you do not have exits with 5.

            Example:
              rider sports remove gravel
            """
    )

    @Argument(help: ArgumentHelp("The sport's id, as `rider sports mine` shows it.", valueName: "id"))
    var id: String

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func validate() throws {
        try SportIDArgument.validate(id, shownBy: "rider sports mine")
    }

    func run() async throws {
        let context = try CommandContext(global)
        try await context.rider.sports.remove(SportID(id))
        try context.print(json: RemovedSportOutput(id: id, removed: true), lines: ["Removed \(id) from your sports."])
    }
}
