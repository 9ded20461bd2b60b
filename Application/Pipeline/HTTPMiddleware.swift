import Foundation
import RiderDomain

/// What the steps of the request pipeline know about a request beyond its bytes: what its
/// endpoint promises.
package struct RequestOptions: Hashable, Sendable {
    /// The request goes out with the signed-in user's bearer token, renewed after a 401 and, with
    /// a ``Reauthentication`` handler, after the session expired for good.
    package var isAuthorized: Bool
    /// Which failures are tried again, how often and after what delay.
    package var retryPolicy: RetryPolicy

    /// - Parameters:
    ///   - isAuthorized: whether the request carries the session's bearer token.
    ///   - retryPolicy: which failures are tried again; none by default.
    package init(isAuthorized: Bool = false, retryPolicy: RetryPolicy = .none) {
        self.isAuthorized = isAuthorized
        self.retryPolicy = retryPolicy
    }

    /// A request sent as it is: no token added, not tried again (the token endpoint's requests).
    package static let plain = RequestOptions()
}

/// One step of the ``RequestPipeline``: sees each request on its way out and its response (or
/// error) on its way back, and decides whether, how often and in what form it goes on (`next`).
///
/// The shape of swift-openapi-runtime's `ClientMiddleware`: a step holds no reference to the
/// steps around it, so the pipeline is assembled once from an ordered list and each step can be
/// tested on its own in front of a stub transport.
package protocol HTTPMiddleware: Sendable {
    /// - Parameters:
    ///   - request: the request as the steps before this one left it.
    ///   - options: what the request's endpoint promises.
    ///   - next: sends a request on through the steps after this one; may be called more than
    ///     once (a retry, a redirect hop) or not at all.
    /// - Returns: the response to hand back to the steps before this one.
    /// - Throws: what `next` throws, or this step's own refusal.
    func intercept(_ request: HTTPRequest, options: RequestOptions,
                   next: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse
}
