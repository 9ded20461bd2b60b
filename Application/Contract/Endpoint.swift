import Foundation
import RiderDomain

/// One operation of the API contract, typed by what it returns.
///
/// A plain value: method, path, query, body and whether it needs the user's bearer token,
/// plus how to read a success and how to map a failure. Use cases send endpoints through
/// ``APIClient``; nothing else in RiderKit builds URLs by hand.
package struct Endpoint<Response: Sendable>: Sendable {
    /// Whether the request carries the signed-in user's access token.
    package enum Authorization: Hashable, Sendable {
        case none
        case bearer
    }

    package var method: HTTPMethod
    package var path: String
    package var query: [(String, String)]
    package var headers: HTTPHeaders
    package var body: RequestBody?
    package var authorization: Authorization
    /// When a failed attempt is sent again; by default per method (POST never).
    package var retryPolicy: RetryPolicy
    /// Reads a 2xx response.
    package var decode: @Sendable (HTTPResponse) throws -> Response
    /// Turns a non-2xx response into an error (after the session engine has handled 401s).
    package var mapError: @Sendable (HTTPResponse) -> RiderError
    /// Statuses besides 2xx that ``decode`` reads rather than ``mapError`` (for example `304`
    /// for a conditional GET).
    package var alsoDecodes: Set<Int> = []
    /// Headers a successful (2xx) answer must carry, such as `ETag` where an edit depends on it;
    /// a success without one is `RiderError.malformedResponse(_:)` naming the header.
    package var requiredHeaders: [String] = []
    /// Whether a redirect may be followed; `false` for the token and revocation endpoints, whose
    /// bodies carry credentials.
    package var followsRedirects = true

    package init(
        method: HTTPMethod,
        path: String,
        query: [(String, String)] = [],
        headers: HTTPHeaders = [:],
        body: RequestBody? = nil,
        authorization: Authorization,
        retryPolicy: RetryPolicy? = nil,
        decode: @escaping @Sendable (HTTPResponse) throws -> Response,
        mapError: @escaping @Sendable (HTTPResponse) -> RiderError = ProblemMapping.error(for:)
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.authorization = authorization
        self.retryPolicy = retryPolicy ?? .default(for: method)
        self.decode = decode
        self.mapError = mapError
    }

    /// The transport-level request for this endpoint under `configuration`.
    /// - Throws: `RiderError.invalidConfiguration(_:)` when the URL cannot be formed.
    package func request(in configuration: APIConfiguration) throws -> HTTPRequest {
        try request(in: configuration, url: configuration.url(for: path, query: query))
    }

    /// The same, its URL from `paths` (built once per path).
    /// - Throws: `RiderError.invalidConfiguration(_:)` when the URL cannot be formed.
    package func request(through paths: ResolvedPaths, in configuration: APIConfiguration) throws -> HTTPRequest {
        try request(in: configuration, url: paths.url(for: path, query: query))
    }

    private func request(in configuration: APIConfiguration, url: URL) -> HTTPRequest {
        var headers = self.headers
        if headers["Accept"] == nil { headers["Accept"] = "application/json, application/problem+json" }
        if let body { headers["Content-Type"] = body.contentType }
        return HTTPRequest(
            method: method,
            url: url,
            headers: headers,
            body: body?.data,
            timeout: configuration.requestTimeout,
            followsRedirects: followsRedirects
        )
    }

    /// Decodes a success or throws the mapped error.
    /// - Throws: the mapped error for a failure; `RiderError.malformedResponse(_:)` for a
    ///   success without one of ``requiredHeaders``.
    package func response(from response: HTTPResponse) throws -> Response {
        guard response.isSuccess || alsoDecodes.contains(response.status) else { throw mapError(response) }
        if response.isSuccess,
           let missing = requiredHeaders.first(where: { (response.headers[$0] ?? "").isEmpty }) {
            throw RiderError.malformedResponse("the answer to \(method) \(path) has no \(missing) header, "
                + "which the API contract requires")
        }
        return try decode(response)
    }

    /// A copy whose successful answers must carry `headers`.
    package func requiring(_ headers: String...) -> Endpoint {
        var copy = self
        copy.requiredHeaders += headers
        return copy
    }
}

extension Endpoint where Response: Decodable {
    /// Decodes the body as `Response` JSON; `what` names it in error messages.
    package static func decodeJSON(_ what: String) -> @Sendable (HTTPResponse) throws -> Response {
        { response in try ContractCoding.decode(Response.self, from: response.body, what: what) }
    }
}
