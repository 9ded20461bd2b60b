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
    /// `scheme://authority` exactly as the API's base URL spells it, when it has no user info: a
    /// URL whose text starts with it, then `/`, `?`, `#` or nothing, is on the API origin without
    /// parsing its host and port (which, lowercased and joined per request, was a twentieth of
    /// RiderKit's own work on `GET /auth/me`). Any other spelling takes the full comparison.
    private let originPrefix: String?

    package init(sessions: SessionEngine) {
        self.sessions = sessions
        apiOrigin = RedirectMiddleware.origin(of: sessions.apiBaseURL)
        originPrefix = Self.authorityPrefix(of: sessions.apiBaseURL.absoluteString)
    }

    /// Whether `url` is on the session's API origin, the only one its token is sent to.
    package func isSessionOrigin(_ url: URL) -> Bool {
        if let originPrefix {
            let text = url.absoluteString.utf8
            if text.starts(with: originPrefix.utf8) {
                guard let next = text.dropFirst(originPrefix.utf8.count).first else { return true }
                if next == UInt8(ascii: "/") || next == UInt8(ascii: "?") || next == UInt8(ascii: "#") { return true }
            }
        }
        return RedirectMiddleware.origin(of: url) == apiOrigin
    }

    /// `scheme://authority` of a URL's text, or `nil` when it has none or names user info.
    static func authorityPrefix(of text: String) -> String? {
        guard let separator = text.range(of: "://") else { return nil }
        let authority = text[separator.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
        return String(text[..<authority.endIndex])
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
