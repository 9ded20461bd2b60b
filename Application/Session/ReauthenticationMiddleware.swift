import Foundation
import RiderDomain

/// When an authorized request finds the session expired for good, has the session engine ask
/// the person to sign in again (``Reauthentication``) and sends the request once more.
///
/// The outermost step of the pipeline, around the retries and the session's step, so a request
/// is sent again whole. Requests that are not ``RequestOptions/isAuthorized`` pass through
/// untouched.
package struct ReauthenticationMiddleware: HTTPMiddleware {
    private let sessions: SessionEngine

    /// - Parameter sessions: asks the person, once however many requests need it, and tells under
    ///   which session a request started.
    package init(sessions: SessionEngine) {
        self.sessions = sessions
    }

    /// - Throws: what `next` and ``SessionEngine/sessionAfterExpiry(of:admission:)`` throw.
    package func intercept(_ request: HTTPRequest, options: RequestOptions,
                           next: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
        guard options.isAuthorized else { return try await next(request) }
        let admission = try await sessions.admit()
        // Read after admission, so a request that waited for a question starts from its outcome.
        // An expired session counts: a request starting after the expiry, before anyone is asked,
        // belongs to the same expiry as the request that found it.
        let startedUnder = try? await sessions.standing().session
        do {
            return try await next(request)
        } catch RiderError.Code.sessionExpired {
            // Nobody was signed in when this request started: there is nothing of its own to renew.
            guard let startedUnder else { throw RiderError.sessionExpired }
            _ = try await sessions.sessionAfterExpiry(of: startedUnder, admission: admission)
            return try await next(request)
        }
    }
}
