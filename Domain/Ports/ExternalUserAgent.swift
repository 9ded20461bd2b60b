import Foundation

/// Shows the person signing in the provider's pages and brings back the provider's answer: the
/// one port between RiderKit and whatever the person signs in with, in the sense of AppAuth's
/// `OIDExternalUserAgent` (present the authorization request, resume with the redirect, dismiss).
///
/// RiderKit's `LoopbackBrowserUserAgent` opens the system browser and receives the
/// redirect on a one-off HTTP endpoint on `127.0.0.1` (RFC 8252 §7.3). A program with a window
/// conforms once to show the pages in its own web view and catch the redirect there, with no
/// listener and no other process; a headless program may ask the person to paste the redirect
/// back.
///
/// An adapter that hands an address to another process (a browser started with it as an
/// argument) lets any local program that reads the process list see that address. The loopback
/// adapter therefore hands the browser a one-time address that holds no `state` or PKCE
/// challenge and stops the sign-in when it is opened twice. A program that races the browser to
/// it still gets the provider's page first; the browser, coming second, then stops the sign-in,
/// unless the racer's own answer came back first, in which case the sign-in ends in the racer's
/// account (so a caller should name the account it signed in to). An adapter that presents the
/// page in-process, as a web view does, has no such address to leak.
public protocol ExternalUserAgent: Sendable {
    /// Readies the user agent to receive the provider's redirect for one browser sign-in.
    ///
    /// The sign-in then calls, on the session returned, ``ExternalUserAgentSession/present(_:shows:acceptingAnswers:)``
    /// once, ``ExternalUserAgentSession/redirect()`` to wait for the answer, and
    /// ``ExternalUserAgentSession/finish(with:)`` exactly once whatever happened.
    /// - Parameter redirectPath: the redirect URI's path as registered with the provider, for
    ///   example `/callback`.
    /// - Returns: the session, already able to receive the redirect (the loopback adapter is
    ///   listening by now).
    /// - Throws: `RiderError.invalidConfiguration(_:)` when no redirect can be received (for the
    ///   loopback adapter: no loopback interface, no free port).
    func beginAuthorization(redirectPath: String) async throws -> any ExternalUserAgentSession

    /// Shows a page that needs no answer back: the device sign-in's approval page.
    /// - Returns: whether the page was shown (`false` when the user agent has nowhere to show it,
    ///   for example no browser on a remote shell; the caller then prints the address).
    /// - Throws: only for a failure the person should hear about (a configured browser that
    ///   cannot be started).
    func show(_ page: URL) async throws -> Bool
}

/// One browser sign-in in a user agent: presents the provider's page, hands out the provider's
/// redirect once, then shows the outcome and lets go (the loopback adapter frees its port).
///
/// Only a redirect that belongs to the sign-in (the check given to
/// ``present(_:shows:acceptingAnswers:)`` accepts it) may end the wait when anyone could have sent
/// it: a program or web page that finds a listening redirect endpoint must not be able to end the
/// sign-in by sending something else. An answer only the person can give — typed or pasted at
/// their own terminal — may be handed over as it is; the flow's own check then refuses a wrong one
/// and ends the sign-in, since nobody else could have sent it.
public protocol ExternalUserAgentSession: Sendable {
    /// The `redirect_uri` to send the provider (for the loopback adapter,
    /// `http://127.0.0.1:<port>/callback`).
    var redirectURI: URL { get }

    /// Presents the provider's authorization page, and from now on hands over only the redirects
    /// `isAnswer` accepts.
    ///
    /// The page carries the request's `state` and PKCE challenge. The loopback adapter offers it
    /// behind a one-time `http://127.0.0.1:<port>/start/<random>` address that sends a browser on
    /// to it once, and starts the system browser with that address; an adapter that shows the page
    /// in-process may report `page` itself as the address.
    /// - Parameters:
    ///   - page: the provider's authorization page, with the request's query.
    ///   - shows: `false` to only make the address ready for the person to open by hand (the
    ///     CLI's `--no-browser`); an adapter with nothing but an in-process view may show it all
    ///     the same.
    ///   - isAnswer: whether a redirect is this request's answer (carries its `state`); may be
    ///     called for every request to the redirect path, so it must be quick and must not block.
    /// - Returns: the address to give the person, and whether the page was shown.
    /// - Throws: `RiderError.invalidConfiguration(_:)` when the page cannot be presented (a
    ///   configured browser that cannot be started, no address can be made).
    func present(_ page: URL, shows: Bool, acceptingAnswers isAnswer: @escaping @Sendable (URL) -> Bool)
        async throws -> UserAgentPresentation

    /// Waits for the provider's redirect that the check given to
    /// ``present(_:shows:acceptingAnswers:)`` accepts.
    /// - Returns: the whole redirect address, its query holding the provider's answer.
    /// - Throws: `CancellationError` when the task is cancelled (the sign-in is given up; the
    ///   session stays open until ``finish(with:)``). `RiderError.untrustedAuthorizationResponse(_:)`
    ///   when the user agent saw something only an intruder leaves behind (for the loopback
    ///   adapter: its one-time address asked for twice).
    func redirect() async throws -> URL

    /// Shows `page`, the sign-in's outcome (where the person is still looking: the browser tab
    /// the redirect came from, the web view), and dismisses the session. Called exactly once,
    /// whatever happened, cancellation included: it is what frees the loopback adapter's port.
    func finish(with page: RedirectPage) async
}

/// What the person is told once the provider's page is presented.
public struct UserAgentPresentation: Hashable, Sendable {
    /// The address that opens the provider's sign-in page, to show the person always, so they can
    /// open it by hand when nothing was shown (for the loopback adapter, its one-time address, in
    /// a browser on this machine).
    public var address: URL
    /// Whether the page was shown: a browser asked to open it, a web view presented.
    public var shown: Bool

    /// - Parameters:
    ///   - address: the address to give the person.
    ///   - shown: whether the page was shown.
    public init(address: URL, shown: Bool) {
        self.address = address
        self.shown = shown
    }
}

/// The page the browser shows after it was sent back to the program: the sign-in's outcome, in
/// plain text (the adapter escapes it).
public struct RedirectPage: Hashable, Sendable {
    /// Whether the sign-in went through.
    public var succeeded: Bool
    /// One line: "Signed in" or what went wrong.
    public var title: String
    /// What to do now ("You can close this tab and return to the terminal.").
    public var message: String

    /// - Parameters:
    ///   - succeeded: whether the sign-in went through.
    ///   - title: one line.
    ///   - message: what to do now.
    public init(succeeded: Bool, title: String, message: String) {
        self.succeeded = succeeded
        self.title = title
        self.message = message
    }
}
