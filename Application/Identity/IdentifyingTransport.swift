import Foundation
import RiderDomain

/// Adds `User-Agent` and `Accept-Language` from a ``RequestIdentity`` to every request that does
/// not set them itself.
///
/// A decorator, so every adapter — and every redirect hop — introduces itself the same way.
public struct IdentifyingTransport: HTTPTransport {
    private let base: any HTTPTransport
    private let identity: RequestIdentity

    public init(base: any HTTPTransport, identity: RequestIdentity) {
        self.base = base
        self.identity = identity
    }

    /// - Throws: whatever the base transport throws.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var request = request
        if request.headers["User-Agent"] == nil { request.headers["User-Agent"] = identity.userAgent }
        if request.headers["Accept-Language"] == nil, let languages = identity.acceptLanguage {
            request.headers["Accept-Language"] = languages
        }
        return try await base.send(request)
    }
}
