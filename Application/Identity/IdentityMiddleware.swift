import Foundation
import RiderDomain

/// Adds `User-Agent` and `Accept-Language` from a ``RequestIdentity`` to every request that does
/// not set them itself.
///
/// A pipeline step inside the redirect follower, so every adapter — and every redirect hop —
/// introduces itself the same way.
package struct IdentityMiddleware: HTTPMiddleware {
    /// The identity's headers, spelled once rather than per request.
    private let userAgent: String
    private let acceptLanguage: String?

    package init(identity: RequestIdentity) {
        userAgent = identity.userAgent
        acceptLanguage = identity.acceptLanguage
    }

    /// - Throws: whatever `next` throws.
    package func intercept(_ request: HTTPRequest, options: RequestOptions,
                          next: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
        var request = request
        if request.headers["User-Agent"] == nil { request.headers["User-Agent"] = userAgent }
        if let acceptLanguage, request.headers["Accept-Language"] == nil {
            request.headers["Accept-Language"] = acceptLanguage
        }
        return try await next(request)
    }
}
