import Foundation
import RiderDomain

/// Signs in through the provider's own page in a browser: the authorization code flow with PKCE
/// on a loopback redirect (RFC 6749 §4.1, RFC 7636 with S256, RFC 8252, RFC 9700), the way
/// `gh auth login` and AppAuth sign in.
///
/// ```swift
/// let session = try await rider.signInWithBrowser { prompt in
///     print("Sign in at \(prompt.url)")
/// }
/// ```
///
/// No password passes through the program. The page is presented by the configured
/// `ExternalUserAgent`: by default the system browser, given a one-time local address that
/// sends it on to the provider's page, so the request's `state` and PKCE challenge are in no
/// process's arguments. Only a redirect with this sign-in's `state` ends the wait (any other is
/// refused and the wait goes on), and its `iss` must name the provider where it promises one;
/// the code is only worth anything with the PKCE verifier, which never leaves this process except
/// to the token endpoint. Nothing is stored after any refusal, timeout or cancellation.
public struct SignInWithBrowser: Sendable {
    let sessions: SessionEngine
    let userAgent: any ExternalUserAgent
    let cryptography: any SignInCryptography
    let clock: any Clock

    package init(sessions: SessionEngine, userAgent: any ExternalUserAgent, cryptography: any SignInCryptography,
                 clock: any Clock) {
        self.sessions = sessions
        self.userAgent = userAgent
        self.cryptography = cryptography
        self.clock = clock
    }

    /// What to tell the person once the sign-in page is ready.
    public struct Prompt: Sendable {
        /// The address that opens the provider's sign-in page; with the default user agent, a
        /// one-time address on this machine's loopback (`http://127.0.0.1:<port>/start/<random>`)
        /// that sends the browser on to the provider once. Show it always, so a person can open it
        /// by hand when no browser opened — in a browser on this machine, since the provider sends
        /// that browser back to this machine's loopback address.
        public let url: URL
        /// Whether the user agent showed the page (for the default one, a browser was asked to
        /// open ``url``).
        public let openedInBrowser: Bool
    }

    /// The path the provider sends the browser back to, unless told otherwise.
    public static let defaultRedirectPath = "/callback"
    /// How long the person has to finish in the browser, unless told otherwise: five minutes.
    public static let defaultTimeout: TimeInterval = 300

    /// Readies the user agent for the redirect (the default one listens on the loopback
    /// interface), presents the provider's sign-in page, waits for the one answer, checks it,
    /// exchanges its code and stores the session.
    ///
    /// Cancel the task to give up: the user agent is dismissed (the listener closes) and nothing
    /// is stored.
    /// - Parameters:
    ///   - redirectPath: the redirect URI's path, as registered with the provider.
    ///   - timeout: seconds to wait for the answer.
    ///   - opensBrowser: `false` only hands the page's address to `prompt`.
    ///   - prompt: called once the page is ready, before the wait.
    /// - Returns: the new session, already in the vault.
    /// - Throws: `RiderError.invalidConfiguration(_:)` (no client id, no authorization endpoint,
    ///   a provider without S256, a redirect path that is not a path);
    ///   `RiderError.untrustedAuthorizationResponse(_:)` (wrong or missing `iss`, the one-time
    ///   address opened twice);
    ///   `RiderError.authorizationDenied`; `RiderError.authorizationFailed(_:description:)`;
    ///   `RiderError.authorizationExpired` after `timeout`; `CancellationError`; network and
    ///   storage errors.
    public func callAsFunction(redirectPath: String = defaultRedirectPath, timeout: TimeInterval = defaultTimeout,
                               opensBrowser: Bool = true,
                               prompt: @escaping @Sendable (Prompt) async -> Void = { _ in }) async throws -> Session {
        try await sessions.signIn(SignInFlow(browser: BrowserSignIn(
            redirectPath: redirectPath, timeout: timeout, opensBrowser: opensBrowser, prompt: prompt,
            userAgent: userAgent, cryptography: cryptography, clock: clock)))
    }
}
