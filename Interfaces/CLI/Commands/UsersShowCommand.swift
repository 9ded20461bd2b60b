import ArgumentParser
import RiderKit

/// `rider users show`: one rider by id.
struct UsersShowCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one rider by id.",
        discussion: """
            Exits with 5 when no rider has that id.

            Example:
              rider users show u_000042
            """
    )

    @Argument(help: ArgumentHelp("The rider's id, such as u_000042.", valueName: "id"))
    var id: String

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        let context = try CommandContext(global)
        let output = UserOutput(try await context.rider.getUser(UserID(id)))
        try context.print(json: output, lines: output.lines)
    }
}
