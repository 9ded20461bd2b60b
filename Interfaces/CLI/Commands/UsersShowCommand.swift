import ArgumentParser
import RiderKit

/// `rider users show`: one rider by id.
struct UsersShowCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one rider by id.",
        discussion: """
            Exits with 5 when no rider has that id. Answers from the local cache while the entry \
            is fresh (cache-first); otherwise asks the server, which confirms an unchanged entry \
            without sending it again (ETag). The last line says where the answer came from.

            Example:
              rider users show u_000042
              rider users show u_000042 --policy cache-only
            """
    )

    @Argument(help: ArgumentHelp("The rider's id, such as u_000042.", valueName: "id"))
    var id: String

    @Option(help: ArgumentHelp("How to combine the server and the local cache.", valueName: "policy"))
    var policy: CachePolicyArgument = .cacheFirst

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        let context = try CommandContext(global)
        let cached = try await context.rider.getUser(UserID(id), policy: policy.policy)
        let output = CachedUserOutput(cached, now: context.now)
        try context.print(json: output, lines: output.lines)
        await context.rider.backgroundRefreshes.waitForAll()
    }
}
