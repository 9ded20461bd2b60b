import ArgumentParser

/// `rider-bench cache`: see ``CacheScenario``.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache", abstract: "The SQLite user cache next to raw sqlite3: upsert, FTS search, lookups.")

    @OptionGroup var options: ScenarioOptions

    @Option(help: "Users in the cache.") var users: Int?
    @Option(help: "Searches to time.") var searches: Int?
    @Option(help: "Lookups by id to time.") var lookups: Int?

    func run() async throws {
        var scenario = options.smoke ? CacheScenario.smoke : CacheScenario()
        if let users { scenario.users = max(1, users) }
        if let searches { scenario.searches = max(1, searches) }
        if let lookups { scenario.lookups = max(1, lookups) }
        try options.emit(try await scenario.run())
    }
}
