import Foundation
import RiderDomain

/// Adds the signed-in user's bearer token to each authorized request and, when the server
/// answers 401, sends it once more with a renewed session.
///
/// A pipeline step, so the transport adapters stay ignorant of sessions. Requests that are not
/// ``RequestOptions/isAuthorized`` pass through untouched, and so does an authorized request
/// whose origin (scheme, host, port) is not the session's API origin: the session's token goes
/// only to the server it was issued for, whoever built the request (a generated client's server
/// URL, a program's own request). Such a request goes out without credentials rather than
/// failing, as a redirect to another origin loses them (``RedirectMiddleware``); the origin it
/// is compared with passed `APIConfiguration`'s https-or-loopback rule.
package struct AuthorizationMiddleware: HTTPMiddleware {
    private let sessions: SessionEngine
    /// The API origin with its default port made explicit, so `https://a` and `https://a:443` match.
    private let apiOrigin: String

    package init(sessions: SessionEngine) {
        self.sessions = sessions
        apiOrigin = RedirectMiddleware.origin(of: sessions.apiBaseURL)
    }

    /// Whether `url` is on the session's API origin, the only one its token is sent to.
    package func isSessionOrigin(_ url: URL) -> Bool {
        RedirectMiddleware.origin(of: url) == apiOrigin
    }

    /// - Throws: what ``SessionEngine/validSession()`` and `next` throw. A second 401 is
    ///   returned, not thrown, so the endpoint maps it.
    package func intercept(_ request: HTTPRequest, options: RequestOptions,
                          next: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
        guard options.isAuthorized, isSessionOrigin(request.url) else { return try await next(request) }
        let session = try await sessions.validSession()
        let response = try await sessions.service.send(request, as: session, through: next)
        guard response.status == 401 else { return response }
        let renewed = try await sessions.renew(afterRejecting: session.accessToken)
        return try await sessions.service.send(request, as: renewed, through: next)
    }
}
