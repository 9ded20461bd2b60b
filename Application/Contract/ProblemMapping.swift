import Foundation
import RiderDomain

/// Maps a non-2xx API response (RFC 9457 problem details, or anything else) to `RiderError`.
package enum ProblemMapping {
    /// The error for `response`; never throws, because an unreadable error body must still
    /// give the caller a useful error.
    @Sendable package static func error(for response: HTTPResponse) -> RiderError {
        let problem = try? JSONDecoder().decode(ProblemDTO.self, from: response.body)
        return kind(of: response, problem: problem).answered(status: response.status, problem: problem.map {
            ServerProblem(type: $0.type.map(clip), title: $0.title.map(clip), status: $0.status, detail: $0.detail.map(clip))
        })
    }

    private static func kind(of response: HTTPResponse, problem: ProblemDTO?) -> RiderError {
        let detail = problem?.summary.map(clip)
        switch response.status {
        case 400, 422:
            let problems = (problem?.fieldProblems ?? []).map {
                FieldProblem(field: clip($0.field), message: clip($0.message))
            }
            if !problems.isEmpty { return .invalidInput(problems) }
            return .invalidInput([FieldProblem(field: "request", message: detail ?? "rejected by the server")])
        case 401:
            return .sessionExpired
        case 403:
            // RFC 6750 §3.1: a resource that wants a scope the token lacks says which.
            if let wanted = AuthenticationChallenge.insufficientScope(in: response) {
                return .insufficientScope(wanted.scope)
            }
            return .forbidden(detail: detail)
        case 404, 410:
            return .notFound(detail: detail)
        case 409:
            return .alreadyExists(detail: detail)
        case 412:
            return .conflict(current: nil)
        case 429:
            // A date form is measured against the response's own Date header; without one the
            // wait is unknown rather than guessed from the device clock.
            let serverNow = response.headers["Date"].flatMap(HTTPDate.parse)
            return .rateLimited(retryAfter: response.headers["Retry-After"].flatMap { RetryAfter.seconds($0, now: serverNow) })
        default:
            return .server(status: response.status, detail: detail)
        }
    }

    /// Keeps a hostile or verbose server from flooding the user's terminal or sending it
    /// escape sequences: one line, no control characters, at most 200 characters.
    static func clip(_ text: String) -> String {
        let firstLine = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let line = String(String.UnicodeScalarView(firstLine.unicodeScalars.filter {
            !CharacterSet.controlCharacters.contains($0)
        }))
        return line.count > 200 ? String(line.prefix(200)) + "…" : line
    }
}
