import Foundation
import RiderDomain

/// One request and what came back, as a recording file holds it (`DIR/auth/me/GET-0001.json`),
/// secrets already replaced by placeholders.
///
/// ```json
/// { "sent_at": 1767323045.12, "received_at": 1767323045.19,
///   "request": { "method": "GET", "path": "/auth/me", "query": null,
///                "headers": ["Authorization: Bearer redacted-access-token-1"] },
///   "response": { "status": 200, "headers": ["Content-Type: application/json"], "body": "{…}" } }
/// ```
///
/// Bodies are UTF-8 text in `body`, or base64 in `body_base64` when they are not text. A request
/// that got no response holds a `failure` instead of a `response`.
struct RecordedExchange: Codable, Sendable, Equatable {
    /// When the request was handed to the transport, by the recording's clock.
    var sentAt: Date
    /// When the response (or the failure) came back.
    var receivedAt: Date
    var request: Request
    var response: Response?
    var failure: Failure?

    enum CodingKeys: String, CodingKey {
        case request, response, failure
        case sentAt = "sent_at"
        case receivedAt = "received_at"
    }

    struct Request: Codable, Sendable, Equatable {
        var method: String
        var path: String
        /// The query string as sent (percent-encoded), secrets replaced; `nil` without one.
        var query: String?
        var headers: [String]
        var body: String?
        var bodyBase64: String?

        enum CodingKeys: String, CodingKey {
            case method, path, query, headers, body
            case bodyBase64 = "body_base64"
        }
    }

    struct Response: Codable, Sendable, Equatable {
        var status: Int
        var headers: [String]
        var body: String?
        var bodyBase64: String?

        enum CodingKeys: String, CodingKey {
            case status, headers, body
            case bodyBase64 = "body_base64"
        }
    }

    /// A request that got no response: the transport's ``RiderError/serverUnreachable(reason:underlying:)``
    /// or ``RiderError/timedOut``, replayed as the same error.
    struct Failure: Error, Codable, Sendable, Equatable {
        var kind: Kind
        var reason: String?

        enum Kind: String, Codable, Sendable {
            case serverUnreachable = "server_unreachable"
            case timedOut = "timed_out"
        }

        /// The failure for `error`, or `nil` for an error that is not the transport's "no response".
        init?(_ error: any Error) {
            guard let error = error as? RiderError else { return nil }
            switch error.code {
            case .serverUnreachable: self.init(kind: .serverUnreachable, reason: error.detail)
            case .timedOut: self.init(kind: .timedOut, reason: nil)
            default: return nil
            }
        }

        init(kind: Kind, reason: String?) {
            self.kind = kind
            self.reason = reason
        }

        var error: RiderError {
            switch kind {
            case .serverUnreachable: .serverUnreachable(reason: reason ?? "no response was recorded")
            case .timedOut: .timedOut
            }
        }
    }

    /// A body as a recording spells it: text when it is UTF-8, else base64.
    static func spell(_ body: Data?) -> (text: String?, base64: String?) {
        guard let body, !body.isEmpty else { return (nil, nil) }
        if let text = String(data: body, encoding: .utf8) { return (text, nil) }
        return (nil, body.base64EncodedString())
    }

    /// The bytes of a body spelled by ``spell(_:)``.
    /// - Throws: ``RiderError/invalidConfiguration(_:underlying:)`` for base64 that does not decode.
    static func bytes(text: String?, base64: String?) throws -> Data {
        if let base64 {
            guard let data = Data(base64Encoded: base64) else {
                throw RiderError.invalidConfiguration("a recorded body_base64 is not base64")
            }
            return data
        }
        return Data((text ?? "").utf8)
    }

    /// Header fields as `Name: value` lines, in order, as HTTP writes them.
    static func spell(_ headers: HTTPHeaders) -> [String] {
        headers.map { "\($0.name): \($0.value)" }
    }

    /// The headers of `Name: value` lines; a line without a colon is skipped.
    static func headers(_ lines: [String]) -> HTTPHeaders {
        HTTPHeaders(lines.compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let value = line[line.index(after: colon)...]
            return (String(line[..<colon]), String(value.hasPrefix(" ") ? value.dropFirst() : value))
        })
    }
}
