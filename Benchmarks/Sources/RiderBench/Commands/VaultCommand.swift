import ArgumentParser

/// `rider-bench vault`: see ``VaultScenario``.
struct VaultCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vault", abstract: "Encrypted-file unlock and reads, Secret Service store + lookup.")

    @OptionGroup var options: ScenarioOptions

    func run() async throws {
        try options.emit(try await (options.smoke ? VaultScenario.smoke : VaultScenario()).run())
    }
}
