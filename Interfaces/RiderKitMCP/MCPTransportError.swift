import Foundation
import RiderApplication

/// Why ``StreamableHTTPTransport`` could not exchange a message with the MCP server.
///
/// Messages name the HTTP status, the header or the stream at fault, never a token or a session id.
public struct MCPTransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, in a form a program can switch on.
    public enum Code: Hashable, Sendable, CustomStringConvertible {
        /// `send` was called before `connect()` or after `disconnect()`.
        case notConnected
        /// The server refused the credentials (401), after the authorizer's one renewal, or no
        /// authorizer was given.
        case unauthorized
        /// The server answered 403 with `error="insufficient_scope"`: the session needs more
        /// scopes (``MCPTransportError/insufficientScope``) — a new sign-in (step-up) can grant them.
        case insufficientScope
        /// The server answered 404 to a request in a session: the MCP session (`Mcp-Session-Id`)
        /// is over, and a new one starts with a new `initialize`.
        case sessionExpired
        /// The server answered with another status than the protocol allows.
        case unexpectedStatus(Int)
        /// The answer was not what the protocol allows: a content type, a header, a body too large.
        case malformedResponse
        /// A Server-Sent Events stream ended before it carried the answer, and could not be resumed.
        case streamEnded

        public var description: String {
            switch self {
            case .notConnected: "not_connected"
            case .unauthorized: "unauthorized"
            case .insufficientScope: "insufficient_scope"
            case .sessionExpired: "session_expired"
            case .unexpectedStatus(let status): "unexpected_status_\(status)"
            case .malformedResponse: "malformed_response"
            case .streamEnded: "stream_ended"
            }
        }
    }

    /// What a server's `403` with `error="insufficient_scope"` asks for (RFC 6750 §3.1, and the
    /// MCP authorization spec's step-up).
    public struct InsufficientScope: Hashable, Sendable {
        /// The scopes the server needs for the request (its challenge's `scope`), space-separated.
        public var scope: String?
        /// The server's protected resource metadata (RFC 9728), when its challenge names it.
        public var resourceMetadata: URL?
        /// The server's explanation (`error_description`), for a person to read.
        public var errorDescription: String?
        /// The whole challenge, for RiderKit's step-up.
        package var challenge: AuthenticationChallenge

        package init(_ challenge: AuthenticationChallenge) {
            self.challenge = challenge
            scope = challenge.scope
            resourceMetadata = challenge.resourceMetadata.flatMap(URL.init(string:))
            errorDescription = challenge.errorDescription
        }
    }

    /// What went wrong.
    public var code: Code
    /// The problem, in words (no secret in it).
    public var message: String
    /// For ``Code/insufficientScope``: what the server asks for.
    public var insufficientScope: InsufficientScope?

    package init(_ code: Code, _ message: String, insufficientScope: InsufficientScope? = nil) {
        self.code = code
        self.message = message
        self.insufficientScope = insufficientScope
    }

    public var description: String { message }

    /// Equal when code and message are: what a test compares.
    public static func == (lhs: MCPTransportError, rhs: MCPTransportError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
    }
}
