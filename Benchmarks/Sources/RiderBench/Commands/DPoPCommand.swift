import ArgumentParser

extension DPoPScenario.Column: ExpressibleByArgument {}

/// `rider-bench dpop`: see ``DPoPScenario``.
struct DPoPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dpop", abstract: "A DPoP proof vs a bare ES256 signature; DPoP-bound vs bearer requests.")

    @OptionGroup var options: ScenarioOptions

    @Option(help: ArgumentHelp("Run only this column's whole-stack requests (bearer or dpop), for a profiler.",
                               visibility: .hidden))
    var only: DPoPScenario.Column?

    func run() async throws {
        let server = try options.startServer()
        defer { server.stop() }
        var scenario = options.smoke ? DPoPScenario.smoke : DPoPScenario()
        scenario.only = only
        try options.emit(try await scenario.run(on: server))
    }
}
