import Foundation
import HTTPTypes
import OpenAPIRuntime
import RiderDomain

/// Between swift-openapi-runtime's request and response (`HTTPTypes` with an `HTTPBody`) and
/// RiderKit's (`RiderDomain.HTTPRequest`, whose body is `Data`), in both directions.
///
/// Bodies are collected into memory, up to a bound: a request RiderKit may send twice (after a
/// refresh, on a retry) must be readable twice, which a streamed `HTTPBody` is not.
enum OpenAPIConversion {
    /// The largest body collected either way: RiderKit's transport refuses larger answers too.
    static let maximumBodyBytes = 8 << 20

    /// A generated client's request as RiderKit sends it.
    /// - Throws: `RiderError.invalidConfiguration` when the path and base URL make no URL;
    ///   what collecting the body throws (too large, or a body that can be read once and was).
    static func request(_ request: HTTPTypes.HTTPRequest, body: HTTPBody?, baseURL: URL) async throws
        -> RiderDomain.HTTPRequest
    {
        let path = request.path ?? "/"
        // The base URL's own path is kept: a client generated for `/api/v1` sends `/users` as
        // `/api/v1/users`.
        let base = baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        guard let url = URL(string: base + path) else {
            throw RiderError.invalidConfiguration("\(request.method) \(path) on \(baseURL.absoluteString) is not a URL")
        }
        var headers = RiderDomain.HTTPHeaders()
        for field in request.headerFields {
            headers.add(field.name.rawName, conditionalHeaders.contains(field.name) ? unescaped(field.value) : field.value)
        }
        return RiderDomain.HTTPRequest(method: RiderDomain.HTTPMethod(rawValue: request.method.rawValue), url: url,
                                       headers: headers, body: try await collected(body))
    }

    /// The headers whose values are entity tags: generated code percent-encodes header parameters
    /// (apple/swift-openapi-generator#857, #529), which turns `"v1"` into `%22v1%22` — a tag no
    /// server matches. The runtime encodes `%` too, so decoding gives back exactly what the
    /// program passed.
    private static let conditionalHeaders: Set<HTTPField.Name> = [.ifMatch, .ifNoneMatch]

    private static func unescaped(_ value: String) -> String {
        value.contains("%") ? value.removingPercentEncoding ?? value : value
    }

    /// RiderKit's request as a generated client's transport takes it: the origin as base URL,
    /// the rest as path.
    static func request(_ request: RiderDomain.HTTPRequest) throws -> (HTTPTypes.HTTPRequest, HTTPBody?, URL) {
        guard let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false),
              let method = HTTPTypes.HTTPRequest.Method(request.method.rawValue) else {
            throw RiderError.invalidConfiguration("the URL for \(request) is not usable")
        }
        var origin = URLComponents()
        origin.scheme = components.scheme
        origin.host = components.host
        origin.port = components.port
        guard let baseURL = origin.url else { throw RiderError.invalidConfiguration("the URL for \(request) is not usable") }
        var path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { path += "?" + query }
        var fields = HTTPFields()
        for field in request.headers {
            guard let name = HTTPField.Name(field.name) else {
                throw RiderError.invalidConfiguration("a header of \(request) is not valid HTTP")
            }
            fields.append(HTTPField(name: name, value: field.value))
        }
        let outgoing = HTTPTypes.HTTPRequest(method: method, scheme: components.scheme, authority: nil, path: path,
                                             headerFields: fields)
        return (outgoing, request.body.map { HTTPBody($0) }, baseURL)
    }

    /// RiderKit's response as a generated client reads it.
    static func response(_ response: RiderDomain.HTTPResponse) -> (HTTPTypes.HTTPResponse, HTTPBody?) {
        var fields = HTTPFields()
        for field in response.headers {
            if let name = HTTPField.Name(field.name) { fields.append(HTTPField(name: name, value: field.value)) }
        }
        let status = HTTPTypes.HTTPResponse.Status(code: response.status)
        return (HTTPTypes.HTTPResponse(status: status, headerFields: fields),
                response.body.isEmpty ? nil : HTTPBody(response.body))
    }

    /// A generated client's transport's answer as RiderKit reads it, its body collected.
    static func response(_ response: HTTPTypes.HTTPResponse, body: HTTPBody?) async throws -> RiderDomain.HTTPResponse {
        var headers = RiderDomain.HTTPHeaders()
        for field in response.headerFields { headers.add(field.name.rawName, field.value) }
        return RiderDomain.HTTPResponse(status: response.status.code, headers: headers, body: try await collected(body) ?? Data())
    }

    /// `body` read whole, up to ``maximumBodyBytes``.
    private static func collected(_ body: HTTPBody?) async throws -> Data? {
        guard let body else { return nil }
        return Data(try await [UInt8](collecting: body, upTo: maximumBodyBytes))
    }
}
