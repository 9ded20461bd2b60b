import ArgumentParser

/// `rider-bench cli`: see ``CLIStart``.
struct CLIStartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cli", abstract: "`rider whoami` from the cache and `rider --help`, whole processes, vs /bin/true.")

    @OptionGroup var options: ScenarioOptions

    func run() async throws {
        let server = try options.startServer()
        defer { server.stop() }
        try options.emit(try await (options.smoke ? CLIStart.smoke : CLIStart()).run(on: server))
    }
}
