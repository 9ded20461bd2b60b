import ArgumentParser

/// `rider cache`: groups the commands about the local user cache.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Inspect, check or empty the local cache of users.",
        discussion: """
            Users seen through `rider users` are cached per server in \
            $XDG_CACHE_HOME/rider/<server>/users.sqlite (RIDER_CACHE=sqlite:/path or memory to \
            change it). The cache never holds tokens or passwords. See docs/cache.md.

            Examples:
              rider cache stats
              rider cache check
              rider cache clear
            """,
        subcommands: [CacheStatsCommand.self, CacheCheckCommand.self, CacheClearCommand.self],
        defaultSubcommand: CacheStatsCommand.self
    )
}
