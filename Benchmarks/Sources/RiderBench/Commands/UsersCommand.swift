import ArgumentParser

/// `rider-bench users`: see ``UserListing``.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users", abstract: "`rider users list --all` over 10,000 riders vs one page: peak memory and time.")

    @OptionGroup var options: ScenarioOptions

    @Option(help: "Riders the server seeds besides the demo account.")
    var riders: Int?

    func run() async throws {
        var scenario = options.smoke ? UserListing.smoke : UserListing()
        if let riders { scenario.riders = max(1, riders) }
        try options.emit(try await scenario.run())
    }
}
