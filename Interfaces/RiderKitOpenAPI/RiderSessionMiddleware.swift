import Foundation
import HTTPTypes
import OpenAPIRuntime
import RiderApplication
import RiderDomain
import RiderKit

/// Authorizes every request of a swift-openapi-generator client with a RiderKit session: the
/// same steps RiderKit's own requests take, in front of the client's transport.
///
/// ```swift
/// let rider = try RiderKit.live(configuration: .load())
/// let client = Client(serverURL: rider.api.baseURL, transport: RiderKitTransport(rider),
///                     middlewares: [RiderSessionMiddleware(rider)])
/// let me = try await client.getMe()   // Bearer added; a 401 renews the session once and retries
/// ```
///
/// Each request gets, in RiderKit's order (`docs/architecture.md`):
/// - the retry policy: idempotent requests (and a PATCH with `If-Match`) are sent again on a
///   lost connection or a 408/429/5xx, with jittered backoff and `Retry-After`, three attempts
///   at most; a POST never;
/// - the bearer token of a valid session (renewed first when it is about to expire) and, on a 401,
///   one renewal shared by every request that met it at once (single-flight, across processes
///   too), then one more attempt;
/// - redirects followed without the token when they leave the origin (give a transport that
///   does not follow them itself, as ``RiderKitTransport`` does);
/// - the identity headers (`User-Agent`, `Accept-Language`), the metrics and the request log
///   RiderKit was configured with.
///
/// The session's token goes only to the session's own API origin (the scheme, host and port of
/// `rider.api.baseURL`, which is https or loopback): a request whose server URL is another origin
/// — another host, another port, plain http — is sent through `next` as it is, without
/// credentials and without RiderKit's steps, so it can neither carry the token nor wait on a
/// renewal or a sign-in. (It is not refused, so a document whose public operations live on
/// another server keeps working; such a server answers 401 where it wants a token.)
///
/// `If-Match` and `If-None-Match` go out as the program gave them: generated code percent-encodes
/// header parameters (apple/swift-openapi-generator#857), which would turn an entity tag's quotes
/// into `%22` and make every conditional request fail.
///
/// Errors are RiderKit's (`RiderError`), whose messages never hold a token: the generated client
/// wraps them in `ClientError` with `underlyingError` set. Bodies are collected in memory (up to
/// 8 MiB) so that a request can be sent again.
public struct RiderSessionMiddleware: ClientMiddleware {
    private let steps: [any HTTPMiddleware]
    /// The session's API origin, default port explicit: the only origin its token is sent to.
    private let apiOrigin: String

    /// - Parameter rider: the session, and the steps and settings it was configured with.
    public init(_ rider: RiderKit) {
        steps = rider.authorizedSteps
        apiOrigin = RedirectMiddleware.origin(of: rider.api.baseURL)
    }

    /// Sends `request` through RiderKit's steps, then through `next`.
    /// - Throws: `RiderError` (for example `.notSignedIn`, `.sessionExpired`, `.serverUnreachable`),
    ///   or what `next` throws.
    public func intercept(
        _ request: HTTPTypes.HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPTypes.HTTPRequest, HTTPBody?, URL) async throws -> (HTTPTypes.HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPTypes.HTTPResponse, HTTPBody?) {
        // Decided before the body is collected: a streamed body can be read only once.
        guard RedirectMiddleware.origin(of: baseURL) == apiOrigin else { return try await next(request, body, baseURL) }
        let outgoing = try await OpenAPIConversion.request(request, body: body, baseURL: baseURL)
        let options = RequestOptions(isAuthorized: true, retryPolicy: .default(for: outgoing.method))
        return OpenAPIConversion.response(try await send(outgoing, options: options, from: 0, next: next))
    }

    /// Step `index` onwards, then the generated client's own next step (its later middlewares
    /// and its transport). Walked per call rather than composed once, because `next` is different
    /// for every call and may not outlive it.
    private func send(
        _ request: RiderDomain.HTTPRequest, options: RequestOptions, from index: Int,
        next: @Sendable (HTTPTypes.HTTPRequest, HTTPBody?, URL) async throws -> (HTTPTypes.HTTPResponse, HTTPBody?)
    ) async throws -> RiderDomain.HTTPResponse {
        guard index < steps.count else {
            let (outgoing, body, baseURL) = try OpenAPIConversion.request(request)
            let (response, responseBody) = try await next(outgoing, body, baseURL)
            return try await OpenAPIConversion.response(response, body: responseBody)
        }
        return try await steps[index].intercept(request, options: options) { request in
            try await send(request, options: options, from: index + 1, next: next)
        }
    }
}
