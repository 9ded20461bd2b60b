import ArgumentParser
import RiderApplication
import RiderKit

/// `rider provider show`: the issuer's metadata and whether it came from the cache.
struct ProviderShowCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show the provider's metadata: its endpoints, grant types and PKCE methods.",
        discussion: """
            Needs an issuer (--issuer, RIDER_ISSUER or "issuer" in the config file) and no \
            login. RiderKit reads {issuer}/.well-known/openid-configuration, else the RFC 8414 \
            /.well-known/oauth-authorization-server document, refuses one whose issuer is not \
            exactly the configured one, and keeps it in $XDG_CACHE_HOME/rider/ for as long as \
            the provider's Cache-Control allows (a day when it does not say, at most a week). \
            The output says whether this answer came from the provider or that cache, and which \
            endpoints a setting overrides (token_path, revoke_path, authorization_endpoint, …).

            With --json: {"issuer", "source", "stored_at", "expires_at", "endpoints": {name: \
            url}, "overridden": [name], "grant_types_supported", \
            "code_challenge_methods_supported", "authorization_response_iss_parameter_supported"}.

            Examples:
              rider --issuer https://id.example.com provider show
              rider provider show --reload --json
            """
    )

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    @Flag(name: .long, help: "Ask the provider even when the cached metadata is still fresh.")
    var reload = false

    func run() async throws {
        let context = try CommandContext(global)
        guard let provider = context.rider.provider else {
            throw RiderError.invalidConfiguration("no issuer is set; pass --issuer URL, set RIDER_ISSUER, "
                + "or run `rider config set issuer URL`")
        }
        let discovered = try await provider.metadata(reload: reload)
        let output = ProviderOutput(discovered, explicit: context.rider.authorizationServer.explicit, now: context.now)
        try context.print(json: output, lines: output.lines)
    }
}
