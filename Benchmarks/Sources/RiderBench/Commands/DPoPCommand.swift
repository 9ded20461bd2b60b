import ArgumentParser

/// `rider-bench dpop`: see ``DPoPScenario``.
struct DPoPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dpop", abstract: "A DPoP proof vs a bare ES256 signature; DPoP-bound vs bearer requests.")

    @OptionGroup var options: ScenarioOptions

    func run() async throws {
        let server = try options.startServer()
        defer { server.stop() }
        try options.emit(try await (options.smoke ? DPoPScenario.smoke : DPoPScenario()).run(on: server))
    }
}
