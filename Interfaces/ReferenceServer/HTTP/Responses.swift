import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Builds responses with the right media types.
enum Responses {
    static let json = "application/json"
    static let problemJSON = "application/problem+json"

    /// A JSON response.
    /// - Throws: An encoding error, which would be a bug in a wire type.
    static func json(_ body: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        var headers = headers
        headers[.contentType] = json
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: try WireCoding.encode(body))))
    }

    /// A problem details response.
    static func problem(_ problem: APIProblem) -> Response {
        var headers = problem.headers
        headers[.contentType] = problemJSON
        // The problem types hold only strings and numbers, so encoding cannot fail; the
        // fallback keeps even that impossible case a well-formed answer.
        let data = (try? WireCoding.encode(problem.body)) ?? Data(#"{"title":"Internal error","status":500}"#.utf8)
        return Response(status: problem.status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// An RFC 6749 §5.2 error response; `no-store` like the success, since neither may be cached.
    static func tokenError(_ error: TokenEndpointError) -> Response {
        let body = TokenErrorBody(error: error.code, errorDescription: error.description)
        let data = (try? WireCoding.encode(body)) ?? Data(#"{"error":"invalid_request"}"#.utf8)
        let headers: HTTPFields = [.contentType: json, .cacheControl: "no-store"]
        return Response(status: error.status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
