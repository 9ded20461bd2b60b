import ArgumentParser

/// `rider-bench storm`: see ``RefreshStorm``.
struct StormCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storm", abstract: "Concurrent requests on an expired token: one refresh, all succeed.")

    @OptionGroup var options: ScenarioOptions

    @Option(help: "Concurrent requests in the storm.")
    var requests = 1_000

    func run() async throws {
        let server = try options.startServer()
        defer { server.stop() }
        var storm = options.smoke ? RefreshStorm.smoke : RefreshStorm()
        storm.requests = requests
        try options.emit(try await storm.run(on: server))
    }
}
