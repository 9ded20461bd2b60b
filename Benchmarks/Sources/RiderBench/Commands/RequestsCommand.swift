import ArgumentParser

/// `rider-bench requests`: see ``RequestOverhead``.
struct RequestsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "requests", abstract: "Whole-stack GET /auth/me vs the bare transport, sequential and concurrent.")

    @OptionGroup var options: ScenarioOptions

    func run() async throws {
        let server = try options.startServer()
        defer { server.stop() }
        try options.emit(try await (options.smoke ? RequestOverhead.smoke : RequestOverhead()).run(on: server))
    }
}
