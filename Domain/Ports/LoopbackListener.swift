import Foundation

/// Receives the provider's redirect at the end of a browser sign-in (RFC 8252 §7.3): a one-off
/// HTTP endpoint on this machine's loopback interface.
///
/// RiderKit's adapter listens on `127.0.0.1` at a port the system picks. A program with its own
/// web view can supply an adapter that catches the redirect there instead.
public protocol LoopbackListener: Sendable {
    /// Starts listening for requests to `path`.
    /// - Parameter path: the redirect URI's path, for example `/callback`.
    /// - Returns: the endpoint, already accepting connections.
    /// - Throws: `RiderError.invalidConfiguration(_:)` when nothing can listen (no loopback
    ///   interface, no free port).
    func listen(path: String) async throws -> any AuthorizationRedirectEndpoint
}

/// One listening redirect endpoint: sends the browser on to the provider's page once, hands out
/// the provider's redirect once, then answers the browser and stops.
///
/// Only a redirect that belongs to the sign-in (its `state` matches) ends the wait: any other
/// request to the path is answered 400 and the wait goes on, so a program or web page that finds
/// the port cannot end the sign-in. Requests to another path get 404, other methods than `GET`
/// get 405; none of them ends the wait.
public protocol AuthorizationRedirectEndpoint: Sendable {
    /// The `redirect_uri` to send the provider (`http://127.0.0.1:<port>/callback`).
    var redirectURI: URL { get }

    /// Readies the endpoint for one authorization request: from now on it hands over only the
    /// redirects `isAnswer` accepts, and it offers `page` behind an address of its own that sends
    /// a browser on to it once.
    ///
    /// The provider's page carries the request's `state` and PKCE challenge. A browser started
    /// with it would show them to every user of the machine (in the process list); the address
    /// returned here holds nothing but a random one-time path. An adapter that shows the page
    /// itself, in no other process, may return `page`.
    /// - Parameters:
    ///   - page: the provider's authorization page, with the request's query.
    ///   - isAnswer: whether a redirect is this request's answer (carries its `state`); called for
    ///     every request to the redirect path, so it must be quick and must not block.
    /// - Returns: the address to open in the browser, for example
    ///   `http://127.0.0.1:<port>/start/<random>`.
    /// - Throws: `RiderError.invalidConfiguration(_:)` when no address can be made.
    func offer(_ page: URL, acceptingAnswers isAnswer: @escaping @Sendable (URL) -> Bool) async throws -> URL

    /// Waits for the redirect: the first `GET` to the path that the check given to
    /// ``offer(_:acceptingAnswers:)`` accepts.
    /// - Returns: the whole address the browser asked for, its query holding the provider's answer.
    /// - Throws: `CancellationError` when the task is cancelled; the endpoint keeps listening
    ///   until ``finish(with:)``. `RiderError.untrustedAuthorizationResponse(_:)` when the
    ///   one-time address was asked for twice, which is what a second program that read it and
    ///   opened it first leaves behind.
    func redirect() async throws -> URL

    /// Answers the browser's request with `page` (when a redirect came) and stops listening.
    /// Call it exactly once, whatever happened: it is what frees the port.
    func finish(with page: RedirectPage) async
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
