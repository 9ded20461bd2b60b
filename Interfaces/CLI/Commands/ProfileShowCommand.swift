import ArgumentParser
import RiderKit

/// `rider profile show`: your rider profile.
struct ProfileShowCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show your rider profile.",
        discussion: """
            The "version" line is the profile's entity tag.
            Given to `rider profile update --if-match`, it makes an edit fail rather than \
            overwrite a newer version.

            Example:
              rider profile show --json
            """
    )

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        let context = try CommandContext(global)
        let output = RiderOutput(try await context.rider.profile.get())
        try context.print(json: output, lines: output.lines)
    }
}
