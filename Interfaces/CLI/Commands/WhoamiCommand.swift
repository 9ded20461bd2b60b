import ArgumentParser
import RiderKit

/// `rider whoami`: the signed-in account as the server sees it.
struct WhoamiCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "whoami",
        abstract: "Show the account you are logged in as, fresh from the server.",
        discussion: """
            Asks the server (GET /auth/me), so it also proves the session still works; an expired \
            access token is renewed on the way. With another --policy the answer may come from the \
            local cache, and the output says where it came from and how old it is.

            Against a provider with no rider API (only an issuer configured, or a server that \
            answers 404 there), it shows the OpenID identity the sign-in kept instead: the \
            subject, email and name from the verified id_token or the userinfo endpoint, and \
            says which.

            Examples:
              rider whoami --json
              rider whoami --policy cache-first
            """
    )

    @Option(help: ArgumentHelp("How to combine the server and the local cache.", valueName: "policy"))
    var policy: CachePolicyArgument = .networkOnly

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        let context = try CommandContext(global)
        // Only an issuer configured: its server has no rider API to ask (a 404 at any real
        // provider), so the identity the sign-in kept is the answer, without the request.
        if !context.configuration.hasRiderAPI, let session = try await context.rider.sessions.currentSession(),
           let identity = session.identity {
            let output = IdentityOutput(session, identity: identity)
            return try context.print(json: output, lines: output.lines)
        }
        let cached: Cached<User>
        do {
            cached = try await context.rider.currentUser(policy: policy.policy)
        } catch let error as RiderError where error.code == .notFound {
            // No rider API here: what the provider said at sign-in is all there is to show.
            guard let session = try await context.rider.sessions.currentSession(), let identity = session.identity
            else { throw error }
            let output = IdentityOutput(session, identity: identity)
            return try context.print(json: output, lines: output.lines)
        }
        if policy == .networkOnly {
            let output = UserOutput(cached.value)
            try context.print(json: output, lines: output.lines)
        } else {
            let output = CachedUserOutput(cached, now: context.now)
            try context.print(json: output, lines: output.lines)
            await context.rider.backgroundRefreshes.waitForAll()
        }
    }
}
