import Foundation
import RiderDomain

/// Adds `User-Agent` and `Accept-Language` from a ``RequestIdentity`` to every request that does
/// not set them itself.
///
/// A pipeline step inside the redirect follower, so every adapter — and every redirect hop —
/// introduces itself the same way.
package struct IdentityMiddleware: HTTPMiddleware {
    private let identity: RequestIdentity

    package init(identity: RequestIdentity) {
        self.identity = identity
    }

    /// - Throws: whatever `next` throws.
    package func intercept(_ request: HTTPRequest, options: RequestOptions,
                          next: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
        var request = request
        if request.headers["User-Agent"] == nil { request.headers["User-Agent"] = identity.userAgent }
        if request.headers["Accept-Language"] == nil, let languages = identity.acceptLanguage {
            request.headers["Accept-Language"] = languages
        }
        return try await next(request)
    }
}
