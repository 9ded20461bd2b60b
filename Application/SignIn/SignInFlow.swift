import Foundation
import RiderDomain

/// A way to sign in, as a value: a password, a device code, the browser. Each runs its steps
/// against the provider and ends by handing the tokens it was issued to the session engine,
/// which makes the session of them the same way for every flow. (AppAuth's authorization and
/// token requests.)
///
/// The use cases (``Login``, ``SignInWithDeviceCode``, ``SignInWithBrowser``) build one and run
/// it. A ``Reauthentication`` returns one, so a session that expired for good can be renewed
/// with any of them, not only with a password:
///
/// ```swift
/// Reauthentication { _ in .browser() }
/// ```
public struct SignInFlow: Sendable {
    /// The flow's steps, ending with the session the context established of the tokens issued
    /// (a browser flow tells the browser how that ended).
    package let run: @Sendable (SignInContext) async throws -> Session

    package init(run: @escaping @Sendable (SignInContext) async throws -> Session) {
        self.run = run
    }

    /// A flow whose steps end with one grant, established as it is.
    package init(granting grant: @escaping @Sendable (SignInContext) async throws -> TokenGrant) {
        run = { context in try await context.establish(try await grant(context)) }
    }

    /// Signs in with an email and password (RFC 6749 §4.3, for servers that still offer it): the
    /// password goes to the token endpoint once and is kept nowhere.
    ///
    /// Running it throws `RiderError.invalidInput(_:)` for an empty email or password,
    /// `RiderError.invalidCredentials`, and `RiderError.invalidConfiguration(_:)` when the provider
    /// does not offer the password grant (nothing is sent then).
    public static func password(_ credentials: Credentials) -> SignInFlow {
        SignInFlow(granting: { context in
            var problems: [FieldProblem] = []
            let email = credentials.email.trimmingCharacters(in: .whitespacesAndNewlines)
            if email.isEmpty { problems.append(FieldProblem(field: "email", message: "is required")) }
            if credentials.password.isEmpty { problems.append(FieldProblem(field: "password", message: "is required")) }
            guard problems.isEmpty else { throw RiderError.invalidInput(problems) }

            if let refusal = try await context.service.server.passwordGrantRefusal() { throw refusal }
            var grant = try await context.granted(.password(Credentials(email: email, password: credentials.password)))
            // The email the server just accepted names the account in `rider session list`; an
            // id_token's or userinfo's identity, when the provider sent one, stands.
            grant.identity = grant.identity ?? AccountIdentity(email: email, name: nil, source: .credentials)
            return grant
        })
    }

    /// Signs the client in as itself (the client credentials grant, RFC 6749 §4.4), for a program
    /// that acts for no person — a service, a CI job. The client authenticates with its secret or
    /// its private key (`private_key_jwt`), and DPoP binds the tokens as for any sign-in. The
    /// session has no refresh token: when its access token is about to expire, or is refused,
    /// RiderKit asks for new tokens the same way.
    ///
    /// Running it throws `RiderError.invalidConfiguration(_:)` for a client without a secret or
    /// a key (a public client cannot act as itself) or one the provider refuses.
    public static var clientCredentials: SignInFlow {
        SignInFlow(granting: { context in
            let configuration = context.service.configuration
            guard let clientID = configuration.clientID, !clientID.isEmpty,
                  configuration.clientSecret != nil || configuration.clientAuthentication == .privateKeyJWT,
                  configuration.clientAuthentication != .none else {
                throw RiderError.invalidConfiguration("signing in as the client needs a client that authenticates: "
                    + "a client id with a client secret or a private key (private_key_jwt)")
            }
            return try await context.granted(.clientCredentials)
        })
    }

    /// Signs in with a device code (RFC 8628): asks the provider for a code, hands it to
    /// `prompt` to show the person (the page to open and the code to enter there), then polls
    /// until they approve, refuse, or the code expires.
    ///
    /// Running it throws `RiderError.invalidConfiguration(_:)` when the provider offers no device
    /// sign-in, `RiderError.authorizationDenied`, `RiderError.authorizationExpired`, and what the
    /// network throws. Cancel the task to stop polling.
    public static func deviceCode(prompt: @escaping @Sendable (DeviceAuthorization) async -> Void) -> SignInFlow {
        SignInFlow(granting: { context in
            let authorization = try await context.service.requestDeviceAuthorization()
            await prompt(authorization)
            return try await deviceCodeGrant(for: authorization, in: context, clock: context.clock)
        })
    }

    /// Signs in through the provider's own page (the authorization code flow with PKCE), presented
    /// by the program's `ExternalUserAgent`: by default the system browser, back on a loopback
    /// redirect. See ``SignInWithBrowser`` for what is checked and what is never stored.
    /// - Parameters:
    ///   - redirectPath: the redirect URI's path, as registered with the provider.
    ///   - timeout: seconds the person has to finish.
    ///   - opensBrowser: `false` only hands the page to `prompt`.
    ///   - prompt: called once the page is ready, before the wait.
    public static func browser(redirectPath: String = SignInWithBrowser.defaultRedirectPath,
                               timeout: TimeInterval = SignInWithBrowser.defaultTimeout, opensBrowser: Bool = true,
                               prompt: @escaping @Sendable (SignInWithBrowser.Prompt) async -> Void = { _ in })
        -> SignInFlow {
        SignInFlow(browser: BrowserSignIn(redirectPath: redirectPath, timeout: timeout, opensBrowser: opensBrowser,
                                          prompt: prompt))
    }

    /// The browser sign-in `steps` describe.
    package init(browser steps: BrowserSignIn) {
        run = { try await steps.run(in: $0) }
    }

    /// Polls the token endpoint for `authorization` until the person decided, waiting on `clock`.
    package static func deviceCodeGrant(for authorization: DeviceAuthorization, in context: SignInContext,
                                        clock: any Clock) async throws -> TokenGrant {
        var interval = authorization.interval
        while true {
            // RFC 8628 §3.5: the interval comes before the first poll too.
            try await clock.sleep(for: interval)
            switch try await context.service.perform(.deviceCode(authorization), clockSkew: context.clockSkew) {
            case .granted(let grant): return grant
            case .slowDown: interval += 5
            case .pending: break
            }
            // The provider would say expired_token too; a provider that keeps saying "pending"
            // must not keep the program waiting past the code's life.
            if clock.now >= authorization.expiresAt { throw RiderError.authorizationExpired }
        }
    }
}

/// What a ``SignInFlow`` runs with: the token service, the clock, the pieces a browser sign-in
/// needs, and the session engine's one way of making a session of a grant.
package struct SignInContext: Sendable {
    package let service: AuthorizationService
    package let clock: any Clock
    /// The server's clock ahead of the device's, as last measured (for checking an id_token when
    /// the answer carries no `Date`).
    package let clockSkew: TimeInterval
    /// Presents the provider's page and receives its redirect; `nil` when the program has none.
    package let userAgent: (any ExternalUserAgent)?
    /// PKCE's random values and SHA-256; `nil` when the program has none.
    package let cryptography: (any SignInCryptography)?
    /// Makes the session of the tokens a flow was issued, and stores it.
    package let establish: @Sendable (TokenGrant) async throws -> Session

    /// The tokens `request` was granted, its answer checked by the service.
    package func granted(_ request: TokenRequest) async throws -> TokenGrant {
        guard case .granted(let grant) = try await service.perform(request, clockSkew: clockSkew) else {
            throw RiderError.malformedResponse("the token endpoint asked to wait, which only a device sign-in may")
        }
        return grant
    }
}
