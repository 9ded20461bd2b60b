import Foundation
import RiderDomain

/// What ``StubTransport`` does with a matched request: answer it, or fail like a transport does.
public enum StubReply: Sendable {
    /// Returns this response.
    case response(HTTPResponse)
    /// Throws this error, as a transport does when no response arrived.
    case failure(any Error)

    /// A 2xx answer with a JSON body.
    /// - Parameters:
    ///   - json: the body.
    ///   - status: the status code, 200 unless told.
    ///   - headers: extra headers; `Content-Type: application/json` is added.
    /// - Returns: the reply.
    public static func successful(_ json: FixtureJSON, status: Int = 200, headers: HTTPHeaders = [:]) -> StubReply {
        .json(json, status: status, headers: headers)
    }

    /// A 2xx answer with a raw body (empty unless told).
    /// - Parameters:
    ///   - body: the body text, sent as UTF-8.
    ///   - status: the status code, 200 unless told.
    ///   - headers: the headers.
    /// - Returns: the reply.
    public static func successful(body: String = "", status: Int = 200, headers: HTTPHeaders = [:]) -> StubReply {
        .response(HTTPResponse(status: status, headers: headers, body: Data(body.utf8)))
    }

    /// Any status with a JSON body.
    /// - Parameters:
    ///   - json: the body.
    ///   - status: the status code.
    ///   - headers: extra headers; `Content-Type` defaults to `application/json`.
    /// - Returns: the reply.
    public static func json(_ json: FixtureJSON, status: Int, headers: HTTPHeaders = [:]) -> StubReply {
        var headers = headers
        if headers["Content-Type"] == nil { headers["Content-Type"] = "application/json" }
        return .response(HTTPResponse(status: status, headers: headers, body: Data(json.text.utf8)))
    }

    /// Any status with a raw body, for malformed or non-JSON answers.
    /// - Parameters:
    ///   - status: the status code.
    ///   - body: the body text, sent as UTF-8.
    ///   - headers: the headers.
    /// - Returns: the reply.
    public static func status(_ status: Int, body: String = "", headers: HTTPHeaders = [:]) -> StubReply {
        .response(HTTPResponse(status: status, headers: headers, body: Data(body.utf8)))
    }

    /// An RFC 9457 problem (`application/problem+json`), as the API sends for every error but
    /// token errors.
    /// - Parameters:
    ///   - status: the status code.
    ///   - detail: the problem's `detail`.
    ///   - errors: per-field errors as (field, message).
    ///   - headers: extra headers.
    /// - Returns: the reply.
    public static func problem(
        status: Int, detail: String? = nil, errors: [(field: String, message: String)] = [], headers: HTTPHeaders = [:]
    ) -> StubReply {
        var headers = headers
        headers["Content-Type"] = "application/problem+json"
        return .json(Fixtures.problem(status: status, detail: detail, errors: errors), status: status, headers: headers)
    }

    /// A token endpoint error (RFC 6749 §5.2), such as `invalid_grant`.
    /// - Parameters:
    ///   - error: the `error` code.
    ///   - description: the `error_description`.
    ///   - status: 400 unless told (the RFC uses 401 for `invalid_client`).
    /// - Returns: the reply.
    public static func tokenError(_ error: String, description: String? = nil, status: Int = 400) -> StubReply {
        .json(Fixtures.tokenError(error, description: description), status: status,
              headers: ["Cache-Control": "no-store"])
    }

    /// Throws `error` instead of answering (for example ``RiderError/serverUnreachable(reason:underlying:)``).
    /// - Parameter error: what the transport throws.
    /// - Returns: the reply.
    public static func failing(_ error: any Error) -> StubReply { .failure(error) }

    /// The server cannot be reached.
    public static var unreachable: StubReply { .failure(RiderError.serverUnreachable(reason: "connection refused")) }
}
