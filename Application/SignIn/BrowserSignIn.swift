import Foundation
import RiderDomain

/// The browser sign-in's steps, as a value: the authorization code flow with PKCE (RFC 6749
/// §4.1, RFC 7636 with S256, RFC 8252, RFC 9207, RFC 9700), presented by an `ExternalUserAgent`.
///
/// Readies the user agent for the redirect, presents the provider's page, waits for the one
/// answer with this sign-in's `state` (and `iss`, where the provider promises it), exchanges its
/// code with the PKCE verifier and has the session established — then tells the browser how it
/// ended, whatever happened, which also frees the loopback port. Nothing is stored after a
/// refusal, a timeout or a cancellation.
package struct BrowserSignIn: Sendable {
    let redirectPath: String
    let timeout: TimeInterval
    let opensBrowser: Bool
    let prompt: @Sendable (SignInWithBrowser.Prompt) async -> Void
    /// The user agent, cryptography and clock to use instead of the context's (a use case built
    /// with its own adapters, as tests build it).
    let userAgent: (any ExternalUserAgent)?
    let cryptography: (any SignInCryptography)?
    let clock: (any Clock)?

    package init(redirectPath: String, timeout: TimeInterval, opensBrowser: Bool,
                 prompt: @escaping @Sendable (SignInWithBrowser.Prompt) async -> Void,
                 userAgent: (any ExternalUserAgent)? = nil, cryptography: (any SignInCryptography)? = nil,
                 clock: (any Clock)? = nil) {
        self.redirectPath = redirectPath
        self.timeout = timeout
        self.opensBrowser = opensBrowser
        self.prompt = prompt
        self.userAgent = userAgent
        self.cryptography = cryptography
        self.clock = clock
    }

    /// - Throws: as ``SignInWithBrowser/callAsFunction(redirectPath:timeout:opensBrowser:prompt:)``;
    ///   `RiderError.invalidConfiguration(_:)` too when the program has no user agent.
    func run(in context: SignInContext) async throws -> Session {
        guard redirectPath.hasPrefix("/"), URLComponents(string: redirectPath)?.path == redirectPath else {
            throw RiderError.invalidConfiguration("the redirect path \(redirectPath) is not a path (it starts with / "
                + "and has no query)")
        }
        guard let userAgent = userAgent ?? context.userAgent, let cryptography = cryptography ?? context.cryptography else {
            throw RiderError.invalidConfiguration("a browser sign-in needs a user agent to present the provider's page, "
                + "and this program has none")
        }
        let agent = try await userAgent.beginAuthorization(redirectPath: redirectPath)
        let outcome: Result<Session, any Error>
        do {
            outcome = .success(try await signIn(in: agent, context: context, cryptography: cryptography))
        } catch {
            outcome = .failure(error)
        }
        // Whatever happened, the person hears it where they are looking and the port is freed.
        await agent.finish(with: Self.page(for: outcome))
        return try outcome.get()
    }

    private func signIn(in agent: any ExternalUserAgentSession, context: SignInContext,
                        cryptography: any SignInCryptography) async throws -> Session {
        let authorization = try await BrowserAuthorization.prepared(by: context.service, redirectURI: agent.redirectURI,
                                                                    cryptography: cryptography)
        // The user agent checks the state before the wait is spent; `code(from:)` checks it again.
        let presented = try await agent.present(authorization.url, shows: opensBrowser,
                                                acceptingAnswers: { authorization.isAnswer($0) })
        await prompt(SignInWithBrowser.Prompt(url: presented.address, openedInBrowser: presented.shown))
        let redirect = try await firstRedirect(in: agent, clock: clock ?? context.clock)
        let code = try authorization.code(from: redirect)
        return try await context.establish(try await context.granted(.authorizationCode(code, of: authorization)))
    }

    /// The user agent's redirect, or `RiderError.authorizationExpired` once the timeout passed.
    private func firstRedirect(in agent: any ExternalUserAgentSession, clock: any Clock) async throws -> URL {
        let timeout = timeout
        return try await withThrowingTaskGroup(of: URL?.self) { group in
            group.addTask { try await agent.redirect() }
            group.addTask {
                try await clock.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let redirect = first else {
                throw RiderError.authorizationTimedOut(after: timeout)
            }
            return redirect
        }
    }

    private static func page(for outcome: Result<Session, any Error>) -> RedirectPage {
        switch outcome {
        case .success:
            return RedirectPage(succeeded: true, title: "Signed in",
                                message: "You can close this tab and return to the program that asked you to sign in.")
        case .failure(let error as RiderError):
            return RedirectPage(succeeded: false, title: "The sign-in did not go through", message: error.message)
        case .failure(is CancellationError):
            return RedirectPage(succeeded: false, title: "The sign-in was cancelled",
                                message: "The program stopped waiting; nothing was stored. Start again there.")
        case .failure:
            return RedirectPage(succeeded: false, title: "The sign-in did not go through",
                                message: "The program could not finish the sign-in; it says why. Nothing was stored.")
        }
    }
}
