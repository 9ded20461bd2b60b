import HTTPTypes

/// An error answered with an RFC 9457 problem: thrown by handlers, turned into a response by
/// ``ReferenceResponder``.
struct APIProblem: Error, Sendable {
    static let typePrefix = "https://riderkit.invalid/problems/"

    let status: HTTPResponse.Status
    /// Last path segment of the problem type URI.
    let slug: String
    let title: String
    let detail: String
    var errors: [FieldError]?
    var headers: HTTPFields = [:]

    var body: ProblemBody {
        ProblemBody(type: Self.typePrefix + slug, title: title, status: status.code, detail: detail, errors: errors)
    }

    static func badRequest(detail: String, errors: [FieldError]? = nil) -> APIProblem {
        APIProblem(status: .badRequest, slug: "invalid-request", title: "Invalid request", detail: detail, errors: errors)
    }

    static func malformedJSON(_ detail: String = "The body is not valid JSON.") -> APIProblem {
        APIProblem(status: .badRequest, slug: "malformed-json", title: "Malformed JSON", detail: detail)
    }

    static func validation(_ errors: [FieldError]) -> APIProblem {
        APIProblem(
            status: .unprocessableContent,
            slug: "validation-failed",
            title: "Validation failed",
            detail: "Some fields are invalid; see errors.",
            errors: errors
        )
    }

    static func notFound(_ detail: String) -> APIProblem {
        APIProblem(status: .notFound, slug: "not-found", title: "Not found", detail: detail)
    }

    static func methodNotAllowed(_ method: HTTPRequest.Method, allowed: [HTTPRequest.Method]) -> APIProblem {
        let list = allowed.map(\.rawValue).joined(separator: ", ")
        return APIProblem(
            status: .methodNotAllowed,
            slug: "method-not-allowed",
            title: "Method not allowed",
            detail: "\(method.rawValue) is not allowed here; use \(list).",
            headers: [.allow: list]
        )
    }

    static func unsupportedMediaType(expected: String) -> APIProblem {
        APIProblem(
            status: .unsupportedMediaType,
            slug: "unsupported-media-type",
            title: "Unsupported media type",
            detail: "The body must be sent as \(expected)."
        )
    }

    static func contentTooLarge(limit: Int) -> APIProblem {
        APIProblem(
            status: .contentTooLarge,
            slug: "content-too-large",
            title: "Content too large",
            detail: "The body must not exceed \(limit) bytes."
        )
    }

    /// `421`: the request names a host this server does not answer for (a non-loopback `Host`
    /// while the test hooks are on).
    static func misdirected() -> APIProblem {
        APIProblem(status: .misdirectedRequest, slug: "misdirected-request", title: "Misdirected request",
                   detail: "This server answers only requests addressed to a loopback host (localhost, 127.x.x.x or [::1]).")
    }

    /// `429`: too many failed password grants; `Retry-After` says when to try again.
    static func tooManyRequests(retryAfter seconds: Int) -> APIProblem {
        APIProblem(status: .tooManyRequests, slug: "too-many-requests", title: "Too many requests",
                   detail: "Too many failed sign-ins; try again in \(seconds) s.",
                   headers: [.retryAfter: String(seconds), .cacheControl: "no-store"])
    }

    static func internalError() -> APIProblem {
        APIProblem(status: .internalServerError, slug: "internal-error", title: "Internal error", detail: "The server failed; see its log.")
    }
}
