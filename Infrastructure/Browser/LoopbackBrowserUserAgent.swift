import Foundation
import RiderDomain

/// The command line's user agent: the system browser, and the provider's redirect received on
/// `http://127.0.0.1:<port><path>` (RFC 8252 §7.3), the port chosen by the system. RiderKit's
/// default ``ExternalUserAgent``.
///
/// The browser is `$BROWSER` when it is set, run with the address as its one argument, else
/// inside WSL the Windows browser (`wslview` or `explorer.exe`), else `xdg-open` in a graphical
/// session; with none of them, nothing is opened and the caller prints the address. The browser is never given the provider's page, whose query holds the request's
/// `state` and PKCE challenge, since every process on the machine can read its arguments: it gets
/// a one-time `http://127.0.0.1:<port>/start/<random>` address that sends it on to the page once.
/// When a local program reads that address and opens it first, the browser arriving second stops
/// the sign-in (`untrustedAuthorizationResponse`); a user agent that presents the page in-process
/// (a web view) has no such address.
///
/// The listener answers 400 to any request whose `Host` is not its own (DNS rebinding) and to a
/// redirect without the sign-in's `state`, and neither ends the wait.
public struct LoopbackBrowserUserAgent: ExternalUserAgent {
    private let listener: NIOLoopbackListener
    private let browser: SystemBrowserOpener

    /// - Parameter environment: where `BROWSER`, `DISPLAY`, `WAYLAND_DISPLAY`, `WSL_DISTRO_NAME`
    ///   and `PATH` are read; the browser starts with it, less every `RIDER_*` variable.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(listener: NIOLoopbackListener(), browser: SystemBrowserOpener(environment: environment))
    }

    /// Listens on the first of `addresses` that can be bound (a provider that compares redirect
    /// URIs exactly, port included, needs its registered port), telling `onSkipped` about each
    /// busy one passed over.
    /// - Parameters:
    ///   - addresses: tried in order; `127.0.0.1` on a port the system picks when empty.
    ///   - onSkipped: one line per address passed over, in library terms.
    ///   - environment: as ``init(environment:)``.
    package init(listeningOn addresses: [LoopbackListenAddress], onSkipped: @escaping @Sendable (String) -> Void = { _ in },
                 environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(listener: NIOLoopbackListener(addresses: addresses, onSkipped: onSkipped),
                  browser: SystemBrowserOpener(environment: environment))
    }

    /// Built from its two halves.
    package init(listener: NIOLoopbackListener, browser: SystemBrowserOpener) {
        self.listener = listener
        self.browser = browser
    }

    /// Listens on `127.0.0.1` for requests to `redirectPath`.
    /// - Throws: `RiderError.invalidConfiguration(_:)` when nothing can listen (no loopback
    ///   interface, no free port).
    public func beginAuthorization(redirectPath: String) async throws -> any ExternalUserAgentSession {
        LoopbackBrowserSession(endpoint: try await listener.listen(path: redirectPath), browser: browser)
    }

    /// Opens `page` in the system browser.
    /// - Returns: whether a browser was started; `false` when none can be (no `BROWSER`, not
    ///   WSL, no graphical session with `xdg-open`), and for an address that is not http(s).
    /// - Throws: `RiderError.invalidConfiguration(_:)` when `BROWSER` is set but cannot be started.
    public func show(_ page: URL) async throws -> Bool {
        try await browser.open(page)
    }

    /// Whether a page would be shown (``browserChoice`` is not `.none`). `rider login` picks the browser sign-in over the device code by it.
    package var canOpenPages: Bool { browser.canOpenPages }

    /// How pages are opened here and why (`rider login --verbose` reports it).
    package var browserChoice: SystemBrowserOpener.Choice { browser.choice }
}

/// One sign-in: the listening endpoint, and the browser started with its one-time address.
private struct LoopbackBrowserSession: ExternalUserAgentSession {
    let endpoint: LoopbackRedirectEndpoint
    let browser: SystemBrowserOpener

    var redirectURI: URL { endpoint.redirectURI }

    func present(_ page: URL, shows: Bool, acceptingAnswers isAnswer: @escaping @Sendable (URL) -> Bool)
        async throws -> UserAgentPresentation {
        let start = try await endpoint.offer(page, acceptingAnswers: isAnswer)
        return UserAgentPresentation(address: start, shown: shows ? try await browser.open(start) : false)
    }

    func redirect() async throws -> URL {
        try await endpoint.redirect()
    }

    func finish(with page: RedirectPage) async {
        await endpoint.finish(with: page)
    }
}
