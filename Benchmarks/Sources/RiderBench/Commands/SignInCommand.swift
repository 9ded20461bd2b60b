import ArgumentParser

/// `rider-bench signin`: see ``SignInScenario``.
struct SignInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signin", abstract: "The browser sign-in's round trip on loopback, no person in it, vs a password sign-in.")

    @OptionGroup var options: ScenarioOptions

    func run() async throws {
        let server = try options.startServer()
        try options.emit(try await (options.smoke ? SignInScenario.smoke : SignInScenario()).run(server: server))
    }
}
