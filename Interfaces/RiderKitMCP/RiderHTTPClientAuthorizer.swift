import Foundation
import MCP
import RiderApplication
import RiderDomain
import RiderKit
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The MCP Swift SDK's `HTTPClientAuthorizer`, backed by a RiderKit session: for the SDK's own
/// `HTTPClientTransport`.
///
/// ```swift
/// let transport = HTTPClientTransport(endpoint: mcpURL, authorizer: RiderHTTPClientAuthorizer(rider))
/// ```
///
/// Before each request the session is made valid (renewed first when it is about to expire, a
/// single-flight refresh shared across processes), and its access token goes out as `Authorization:
/// Bearer`; on a 401 the session is renewed once and the SDK sends the request once more.
///
/// Prefer ``StreamableHTTPTransport`` with ``RiderSessionAuthorizer``: on Linux the SDK's
/// transport does not parse event streams (a server that answers with one never gets its answer
/// through), and the SDK's authorizer interface carries one header, so a DPoP-bound session
/// cannot be used through it (its 401 is reported, not retried). The token goes only to the
/// session's own origin (scheme, host and port of `rider.api.baseURL`). A 403 is left to the
/// SDK, which reports it.
public final class RiderHTTPClientAuthorizer: HTTPClientAuthorizer, Sendable {
    private let sessions: SessionEngine
    private let apiOrigin: String
    /// The access token last handed out, for the SDK's synchronous ``authorizationHeader(for:)``.
    private let token = Mutex<String?>(nil)

    /// One renewal per request: the first attempt and one more.
    public let maxAuthorizationAttempts = 2

    /// - Parameter rider: the session to authorize with.
    public init(_ rider: RiderKit) {
        sessions = rider.sessions
        apiOrigin = RedirectMiddleware.origin(of: rider.api.baseURL)
    }

    /// - Throws: `RiderError.invalidConfiguration` when `endpoint` is not on the session's origin
    ///   (https, or http on loopback, as every RiderKit API origin is).
    public func validateEndpointSecurity(for endpoint: URL) throws {
        guard isSessionOrigin(endpoint) else {
            throw RiderError.invalidConfiguration("the MCP endpoint \(RedirectMiddleware.origin(of: endpoint)) is "
                + "not the session's origin \(apiOrigin); its token is sent nowhere else")
        }
    }

    /// `Bearer` and the session's access token, once ``prepareAuthorization(for:session:)`` found it.
    public func authorizationHeader(for endpoint: URL) -> String? {
        guard isSessionOrigin(endpoint) else { return nil }
        return token.withLock { $0 }.map { "Bearer \($0)" }
    }

    /// Makes the session valid (renewing it when it is about to expire) and keeps its token.
    public func prepareAuthorization(for endpoint: URL, session: URLSession) async throws {
        guard isSessionOrigin(endpoint) else { return }
        let current = try await sessions.validSession()
        token.withLock { $0 = current.isSenderConstrained ? nil : current.accessToken }
    }

    /// On a 401, renews the session once (single-flight) and asks the SDK to send the request again.
    /// - Returns: `false` for a 403 or another origin: the SDK reports those.
    /// - Throws: `RiderError` when the session cannot be renewed; ``MCPTransportError`` for a
    ///   DPoP-bound session, which this interface cannot authorize.
    public func handleChallenge(statusCode: Int, headers: [String: String], endpoint: URL, operationKey: String?,
                                session: URLSession) async throws -> Bool {
        guard statusCode == 401, isSessionOrigin(endpoint) else { return false }
        let rejected = try await sessions.validSession()
        guard !rejected.isSenderConstrained else {
            throw MCPTransportError(.unauthorized, "the session is DPoP-bound, and the SDK's HTTPClientTransport "
                + "sends no DPoP proof; use StreamableHTTPTransport with RiderSessionAuthorizer")
        }
        let renewed = try await sessions.renew(afterRejecting: token.withLock { $0 } ?? rejected.accessToken)
        token.withLock { $0 = renewed.accessToken }
        return true
    }

    private func isSessionOrigin(_ url: URL) -> Bool {
        RedirectMiddleware.origin(of: url) == apiOrigin
    }
}
