import Foundation
import RiderApplication
import RiderDomain
import RiderKit

/// Gives each request of a ``StreamableHTTPTransport`` its credentials.
///
/// Shaped as a step around the request rather than as a header value, because credentials are
/// more than one header: a DPoP-bound session signs a proof for each request's method and URL
/// (and the server's nonce, which may take one more round trip), and a 401 calls for a renewal and
/// one more attempt. ``RiderSessionAuthorizer`` is RiderKit's.
public protocol MCPRequestAuthorizer: Sendable {
    /// Sends `request` through `send` with the credentials it should carry, and returns the answer.
    ///
    /// An implementation calls `send` once, or twice when the first answer was a 401 and it could
    /// renew the credentials (refresh, or sign in again); it returns the last answer whatever its
    /// status. It must not follow a redirect with credentials attached: the transport's requests
    /// have `HTTPRequest.followsRedirects` `false`, and `send` never follows one.
    /// - Parameters:
    ///   - request: the request as the transport built it, without credentials.
    ///   - send: sends a request on the wire; the body of an event-stream answer is kept by the
    ///     transport, so the returned response's body is empty then.
    /// - Returns: the server's answer.
    /// - Throws: what `send` throws, or the authorizer's own error (no session, say).
    func authorize(_ request: RiderDomain.HTTPRequest,
                   send: @Sendable (RiderDomain.HTTPRequest) async throws -> RiderDomain.HTTPResponse) async throws
        -> RiderDomain.HTTPResponse

    /// Called when the server answered 403 with `error="insufficient_scope"`: obtains
    /// credentials with the scopes the server asks for (a new sign-in, "step-up"), if it can.
    ///
    /// The transport asks at most once per message, and sends the message once more when this
    /// returns `true`; a second refusal reaches the caller as ``MCPTransportError``. The default
    /// implementation returns `false`.
    /// - Parameter insufficientScope: what the server's challenge asks for.
    /// - Returns: whether the message should be sent again.
    /// - Throws: the sign-in's error; it reaches the caller instead of the 403's.
    func stepUp(for insufficientScope: MCPTransportError.InsufficientScope) async throws -> Bool
}

extension MCPRequestAuthorizer {
    /// Obtains nothing: the 403 reaches the caller as ``MCPTransportError``.
    public func stepUp(for insufficientScope: MCPTransportError.InsufficientScope) async throws -> Bool { false }
}

/// Authorizes a ``StreamableHTTPTransport``'s requests with a RiderKit session: the steps
/// RiderKit's own requests take (as `RiderSessionMiddleware` does for generated OpenAPI clients).
///
/// ```swift
/// let rider = try RiderKit.live(configuration: .load())
/// let transport = StreamableHTTPTransport(endpoint: mcpURL, authorizer: RiderSessionAuthorizer(rider))
/// let client = Client(name: "my-agent", version: "1.0")
/// try await client.connect(transport: transport)
/// ```
///
/// Each request gets, in RiderKit's order (`docs/architecture.md`): the access token of a valid
/// session (renewed first when about to expire) as `Authorization: Bearer`, or `Authorization:
/// DPoP` with a `DPoP` proof for a sender-constrained session; on a 401, one renewal shared by
/// every request that met it at once (single-flight, across processes too) and one more
/// attempt; re-authentication when the program configured it; the identity headers, metrics and
/// request log RiderKit was configured with. A redirect is refused (`RiderError.unsafeRedirect`),
/// not followed: an MCP request's body is a JSON-RPC message the redirect target never gets.
///
/// The token goes only to the session's own origin (scheme, host and port of `rider.api.baseURL`):
/// a request to another origin is sent as it is, without credentials, and meets the server's 401.
public struct RiderSessionAuthorizer: MCPRequestAuthorizer {
    private let steps: [any HTTPMiddleware]
    private let apiOrigin: String

    /// - Parameter rider: the session, and the steps and settings it was configured with.
    public init(_ rider: RiderKit) {
        steps = rider.authorizedSteps
        apiOrigin = RedirectMiddleware.origin(of: rider.api.baseURL)
    }

    /// Sends `request` through RiderKit's steps, then through `send`.
    /// - Throws: `RiderError` (`.notSignedIn`, `.sessionExpired`, `.unsafeRedirect`, …) or what
    ///   `send` throws.
    public func authorize(_ request: RiderDomain.HTTPRequest,
                          send: @Sendable (RiderDomain.HTTPRequest) async throws -> RiderDomain.HTTPResponse) async throws
        -> RiderDomain.HTTPResponse {
        guard RedirectMiddleware.origin(of: request.url) == apiOrigin else { return try await send(request) }
        // Never sent again by the retry step: a POST carries a JSON-RPC message the server may
        // have acted on, and a broken event stream is resumed by the transport itself.
        let options = RequestOptions(isAuthorized: true, retryPolicy: .none)
        return try await step(0, request, options: options, send: send)
    }

    private func step(_ index: Int, _ request: RiderDomain.HTTPRequest, options: RequestOptions,
                      send: @Sendable (RiderDomain.HTTPRequest) async throws -> RiderDomain.HTTPResponse) async throws
        -> RiderDomain.HTTPResponse {
        guard index < steps.count else { return try await send(request) }
        return try await steps[index].intercept(request, options: options) { request in
            try await step(index + 1, request, options: options, send: send)
        }
    }
}
