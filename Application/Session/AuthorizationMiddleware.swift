import Foundation
import RiderDomain

/// Adds the signed-in user's bearer token to each authorized request and, when the server
/// answers 401, sends it once more with a renewed session.
///
/// A pipeline step, so the transport adapters stay ignorant of sessions. Requests that are not
/// ``RequestOptions/isAuthorized`` pass through untouched.
package struct AuthorizationMiddleware: HTTPMiddleware {
    private let sessions: SessionEngine

    package init(sessions: SessionEngine) {
        self.sessions = sessions
    }

    /// - Throws: what ``SessionEngine/validSession()`` and `next` throw. A second 401 is
    ///   returned, not thrown, so the endpoint maps it.
    package func intercept(_ request: HTTPRequest, options: RequestOptions,
                          next: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
        guard options.isAuthorized else { return try await next(request) }
        let session = try await sessions.validSession()
        let response = try await next(Self.authorize(request, with: session))
        guard response.status == 401 else { return response }
        let renewed = try await sessions.renew(afterRejecting: session.accessToken)
        return try await next(Self.authorize(request, with: renewed))
    }

    static func authorize(_ request: HTTPRequest, with session: Session) -> HTTPRequest {
        var request = request
        request.headers["Authorization"] = "Bearer \(session.accessToken)"
        return request
    }
}
