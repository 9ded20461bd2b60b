import ArgumentParser

/// `rider-bench`: RiderKit next to its floor (the bare transport, raw sqlite3, the bare KDF, a
/// process that does nothing), scenario by scenario, in one run. See docs/performance.md.
@main
struct RiderBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rider-bench",
        abstract: "Measure RiderKit against its floor and print one table (docs/performance.md).",
        discussion: """
            Build in release mode first (make bench does). Without a subcommand every scenario \
            runs, each in its own process so its peak memory is its own, against one rider-server \
            started on a free loopback port.

            Examples:
              rider-bench                 # the full run, about five minutes on 2 cores
              rider-bench --smoke         # every scenario at tiny sizes (part of make test)
              rider-bench storm --requests 1000
            """,
        subcommands: [AllScenarios.self, RequestsCommand.self, StormCommand.self, CacheCommand.self,
                      VaultCommand.self, CLIStartCommand.self, UsersCommand.self, SignInCommand.self, DPoPCommand.self],
        defaultSubcommand: AllScenarios.self
    )
}
