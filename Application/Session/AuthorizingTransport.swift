import Foundation
import RiderDomain

/// Adds the signed-in user's bearer token to each request and, when the server answers 401,
/// retries once with a renewed session.
///
/// A decorator so the transport adapters stay ignorant of sessions.
public struct AuthorizingTransport: HTTPTransport {
    private let base: any HTTPTransport
    private let sessions: SessionEngine

    public init(base: any HTTPTransport, sessions: SessionEngine) {
        self.base = base
        self.sessions = sessions
    }

    /// - Throws: what ``SessionEngine/validSession()`` and the base transport throw. A second 401
    ///   is returned, not thrown, so the endpoint maps it.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let session = try await sessions.validSession()
        let response = try await base.send(Self.authorize(request, with: session))
        guard response.status == 401 else { return response }
        let renewed = try await sessions.renew(afterRejecting: session.accessToken)
        return try await base.send(Self.authorize(request, with: renewed))
    }

    static func authorize(_ request: HTTPRequest, with session: Session) -> HTTPRequest {
        var request = request
        request.headers["Authorization"] = "Bearer \(session.accessToken)"
        return request
    }
}
