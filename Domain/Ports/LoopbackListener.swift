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

/// One listening redirect endpoint: hands out the provider's redirect once, then answers the
/// browser and stops.
///
/// Requests to another path get 404, other methods than `GET` get 405; neither ends the wait.
public protocol AuthorizationRedirectEndpoint: Sendable {
    /// The `redirect_uri` to send the provider (`http://127.0.0.1:<port>/callback`).
    var redirectURI: URL { get }

    /// Waits for the redirect: the first `GET` to the path.
    /// - Returns: the whole address the browser asked for, its query holding the provider's answer.
    /// - Throws: `CancellationError` when the task is cancelled; the endpoint keeps listening
    ///   until ``finish(with:)``.
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
