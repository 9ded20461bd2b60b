import ArgumentParser

/// `rider`: the root command. It only groups the subcommands and documents what is shared.
struct RiderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rider",
        abstract: "Log in to a rider community server, edit your rider profile and find other riders.",
        discussion: """
            The server comes from --server, else RIDER_BASE_URL, else "base_url" in \
            $XDG_CONFIG_HOME/rider/config.json (`rider config show` lists every setting and \
            where it comes from; `rider config set base_url URL` writes it). Passwords are never taken from the command line: \
            commands ask for them on the terminal without echo, or read them from standard input \
            with --password-stdin.

            Every command takes --json (machine-readable output on stdout; errors as JSON on \
            stderr), --verbose (request logging: one line per request on stderr with method, \
            URL and status; never headers, bodies, tokens or passwords), --server URL, \
            --account EMAIL|ID (the account to act as among those signed in on the server, else \
            RIDER_ACCOUNT, else the server's active one: `rider session list`) and \
            --color auto|always|never. On a terminal, listings are tables with column titles, \
            styled unless NO_COLOR is set or TERM=dumb; piped, they are plain aligned lines.

            --record DIR also writes every HTTP request and response into DIR as JSON files \
            (tokens, passwords and cookies replaced by placeholders); --replay DIR then runs the \
            same commands against those files instead of the network, in the order they were \
            recorded, with the time as it was recorded.

            For jobs with no one to sign in: RIDER_TOKEN holds an access token every command \
            uses as it is (nothing is stored, it is never renewed, and once the server refuses \
            it the command exits 4 naming the variable). To keep a token as the session \
            instead, give it on standard input to `rider login --with-token`.

            `rider --version` prints the release.

            Shell completions: `rider --generate-completion-script bash|zsh|fish` prints a \
            completion script for that shell; README's "Shell completions" says where to put it:
              rider --generate-completion-script zsh > ~/.zfunc/_rider
              rider --generate-completion-script fish \\
                > ~/.config/fish/completions/rider.fish

            Examples:
              rider config set base_url https://api.example.com
              printf '%s\\n' "$PASSWORD" |
                rider login --email demo@example.com --password-stdin
              rider users search jose --limit 5
              rider --verbose whoami

            Exit codes:
              0   success
              1   other error (for example, the account may not do this)
              2   usage error (unknown flag, bad argument, no terminal to ask on)
              3   login failed (wrong email or password; a device sign-in declined or expired)
              4   not logged in (or not as the --account asked for), or the session expired: run `rider login`
              5   not found
              6   conflict (email already registered, profile changed elsewhere)
              7   network (server unreachable, timed out, rate limited)
              8   the server sent a response rider cannot use
              9   input rejected (by rider or by the server)
              10  configuration error (no or invalid server, bad config file)
              11  local storage error (the keyring, the session file or the user cache)
            """,
        subcommands: [
            LoginCommand.self,
            LogoutCommand.self,
            WhoamiCommand.self,
            SessionCommand.self,
            VaultCommand.self,
            RegisterCommand.self,
            ProfileCommand.self,
            UsersCommand.self,
            SportsCommand.self,
            AccountCommand.self,
            CacheCommand.self,
            ConfigCommand.self,
            ProviderCommand.self,
            DoctorCommand.self,
            RequestCommand.self,
        ]
    )
}
