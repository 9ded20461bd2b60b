import ArgumentParser
import Foundation
import RiderApplication
import RiderKit

/// `rider provider show`: the issuer's metadata and whether it came from the cache.
struct ProviderShowCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show the provider's metadata: its endpoints, grant types and PKCE methods.",
        discussion: """
            Needs an issuer (--issuer, RIDER_ISSUER or "issuer" in the config file), or a resource \
            (--resource, RIDER_RESOURCE or "resource"), and no \
            login. RiderKit reads {issuer}/.well-known/openid-configuration, else the RFC 8414 \
            /.well-known/oauth-authorization-server document, refuses one whose issuer is not \
            exactly the configured one, and keeps it in $XDG_CACHE_HOME/rider/ for as long as \
            the provider's Cache-Control allows (a day when it does not say, at most a week). \
            The output says whether this answer came from the provider or that cache, and which \
            endpoints a setting overrides (token_path, revoke_path, authorization_endpoint, …).

            With --json: {"issuer", "source", "stored_at", "expires_at", "endpoints": {name: \
            url}, "overridden": [name], "grant_types_supported", \
            "code_challenge_methods_supported", "authorization_response_iss_parameter_supported"}.

            With --resource URL, no issuer is needed: RiderKit asks the protected resource \
            (a GET without credentials, or with --mcp the JSON-RPC initialize an MCP client \
            sends), reads resource_metadata from its 401's WWW-Authenticate, else \
            /.well-known/oauth-protected-resource with the resource's path inserted, then at \
            the root (RFC 9728). The metadata must name exactly that URL as its resource; no \
            redirect is followed. The authorization server is the configured issuer when the \
            resource lists it (one it does not list is refused), else the first listed whose \
            metadata (RFC 8414, then OpenID Connect, merged) names its issuer exactly and \
            offers PKCE with S256. Both documents are printed; with --json: \
            {"protected_resource": {"resource", "metadata_url", "found_at", "status", \
            "challenge", "authorization_servers", "scopes_supported", ...}, \
            "authorization_server": {as above}, "client": {"client_id", "origin", "issued_at", \
            "grant_types", "redirect_uris"} or null, "registration_offered"}: the client rider \
            signs in with there — configured, a metadata document, or the one it registered \
            (never a secret).

            Examples:
              rider --issuer https://id.example.com provider show
              rider provider show --reload --json
              rider provider show --resource https://mcp.example.com/mcp --mcp
            """
    )

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    @Flag(name: .long, help: "Ask the provider even when the cached metadata is still fresh.")
    var reload = false

    @Flag(name: .long, help: "With --resource: the resource is an MCP endpoint; ask it with an initialize request.")
    var mcp = false

    func validate() throws {
        if mcp && global.resource == nil { throw ValidationError("--mcp needs --resource URL") }
        if let resource = global.resource, URL(string: resource)?.scheme == nil {
            throw ValidationError("--resource must be an absolute URL such as https://api.example.com/mcp")
        }
    }

    func run() async throws {
        if let resource = global.resource {
            // The resource is all this needs: with no server configured, it stands in as one. It
            // is only shown, never signed in to, so it need not be on a configured server's origin.
            var options = global
            options.resource = nil
            if options.server == nil, options.issuer == nil,
               !(try RiderKit.Configuration.namesServer(environment: ProcessInfo.processInfo.environment)) {
                options.server = resource
            }
            try await showResource(resource, context: try CommandContext(options))
            return
        }
        let context = try CommandContext(global)
        if context.rider.provider == nil, let resource = context.configuration.api.resource {
            // A configured resource names the provider: show both, as --resource does.
            try await showResource(resource.absoluteString, context: context)
            return
        }
        guard let provider = context.rider.provider else {
            throw RiderError.invalidConfiguration("no issuer is set; pass --issuer URL, set RIDER_ISSUER, "
                + "or run `rider config set issuer URL`")
        }
        let discovered = try await provider.metadata(reload: reload)
        let output = ProviderOutput(discovered, explicit: context.rider.authorizationServer.explicit, now: context.now)
        try context.print(json: output, lines: output.lines)
    }

    /// The protected resource's metadata and its authorization server's.
    private func showResource(_ text: String, context: CommandContext) async throws {
        guard let url = URL(string: text) else {
            throw RiderError.invalidConfiguration("--resource must be an absolute URL such as https://api.example.com/mcp")
        }
        let probe: ProtectedResourceDiscovery.Probe = mcp
            ? .mcpInitialize(clientName: "rider", clientVersion: RequestIdentity.libraryVersion) : .get
        let discovered = try await context.rider.protectedResource(url, probe: probe).discover(reload: reload)
        // The client kept there, without registering one just to show it.
        let client = try await context.rider.authorizationServer.registration?
            .known(for: discovered.authorizationServer.metadata)
        let output = ProtectedResourceOutput(discovered, client: client, now: context.now)
        try context.print(json: output, lines: output.lines)
    }
}
