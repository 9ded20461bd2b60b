import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("Problem and token error mapping")
struct ProblemMappingTests {
    func response(_ reply: StubReply) throws -> HTTPResponse {
        guard case .response(let response) = reply else { throw RiderError.malformedResponse("not a response") }
        return response
    }

    @Test("each status maps to the error a caller can act on", arguments: [
        (401, RiderError.sessionExpired),
        (403, .forbidden(detail: "admins only")),
        (404, .notFound(detail: "admins only")),
        (410, .notFound(detail: "admins only")),
        (409, .alreadyExists(detail: "admins only")),
        (412, .conflict(current: nil)),
        (500, .server(status: 500, detail: "admins only")),
        (418, .server(status: 418, detail: "admins only")),
    ])
    func statuses(status: Int, expected: RiderError) throws {
        #expect(ProblemMapping.error(for: try response(.problem(status: status, detail: "admins only"))) == expected)
    }

    @Test("the status and the server's problem details are kept, one line each")
    func problemDetailsKept() throws {
        let body = #"{"type":"https://example.com/probs/admins","title":"Admins only","status":403,"detail":"ask an admin\nor not"}"#
        let error = ProblemMapping.error(for: HTTPResponse(
            status: 403, headers: ["Content-Type": "application/problem+json"], body: Data(body.utf8)))
        #expect(error.code == .forbidden)
        #expect(error.status == 403)
        #expect(error.problem == ServerProblem(type: "https://example.com/probs/admins", title: "Admins only",
                                               status: 403, detail: "ask an admin"))
        #expect(error.detail == "ask an admin")
    }

    @Test("429 carries Retry-After in seconds")
    func rateLimited() throws {
        let error = ProblemMapping.error(for: try response(.problem(status: 429, headers: ["Retry-After": "7"])))
        #expect(error == .rateLimited(retryAfter: 7))
    }

    @Test("a 400 without field errors still explains itself")
    func badRequestWithoutFields() throws {
        let error = ProblemMapping.error(for: try response(.problem(status: 400, detail: "q is required")))
        #expect(error == .invalidInput([FieldProblem(field: "request", message: "q is required")]))
    }

    @Test("an error body that is not a problem still gives a useful error")
    func unreadableBody() throws {
        #expect(ProblemMapping.error(for: try response(.status(502, body: "<html>Bad gateway</html>")))
                == .server(status: 502, detail: nil))
    }

    @Test("server text is clipped to one line, so a hostile server cannot flood the terminal")
    func clipsDetail() throws {
        let long = String(repeating: "x", count: 500)
        let error = ProblemMapping.error(for: try response(.problem(status: 500, detail: "first line\nsecond line")))
        #expect(error == .server(status: 500, detail: "first line"))
        let clipped = ProblemMapping.error(for: try response(.problem(status: 503, detail: long)))
        guard clipped.code == .server, let detail = clipped.detail else { Issue.record("no detail"); return }
        #expect(detail.count <= 201)
    }

    @Test("server text in field errors is clipped to one line too")
    func clipsFieldMessages() throws {
        let error = ProblemMapping.error(for: try response(.problem(status: 422, errors: [
            (field: "display_name", message: "too long\n\u{1B}[2J fake prompt$ "),
        ])))
        let text = try #require(error.errorDescription)
        #expect(!text.contains { $0.isNewline }, "\(text)")
    }

    @Test("token errors depend on the grant", arguments: [
        ("invalid_grant", 400, TokenErrorMapping.Grant.password, RiderError.invalidCredentials),
        ("invalid_grant", 400, .refreshToken, .sessionExpired),
        ("invalid_request", 400, .refreshToken, .sessionExpired),
    ])
    func tokenErrors(code: String, status: Int, grant: TokenErrorMapping.Grant, expected: RiderError) throws {
        let response = try response(.tokenError(code, status: status))
        #expect(TokenErrorMapping.error(for: response, grant: grant) == expected)
    }

    @Test("a bare 401 with a Basic challenge from the token endpoint is a rejected client, not a wrong password")
    func bareBasicChallenge() {
        let response = HTTPResponse(status: 401, headers: ["WWW-Authenticate": #"Basic realm="api""#], body: Data())
        guard case let riderError = TokenErrorMapping.error(for: response, grant: .password), riderError.code == .invalidConfiguration else {
            Issue.record("expected .invalidConfiguration")
            return
        }
        let bare = HTTPResponse(status: 401, headers: [:], body: Data())
        #expect(TokenErrorMapping.error(for: bare, grant: .password) == .invalidCredentials)
    }

    @Test("a rejected client, grant type or scope is a configuration problem", arguments: [
        ("invalid_client", 401), ("unauthorized_client", 400), ("unsupported_grant_type", 400), ("invalid_scope", 400),
    ])
    func configurationProblems(code: String, status: Int) throws {
        let error = TokenErrorMapping.error(for: try response(.tokenError(code, status: status)), grant: .password)
        guard error.code == .invalidConfiguration else {
            Issue.record("expected .invalidConfiguration, got \(error)")
            return
        }
    }

    @Test("a bare 401 from the token endpoint is a wrong password")
    func bare401() throws {
        #expect(TokenErrorMapping.error(for: try response(.status(401)), grant: .password) == .invalidCredentials)
    }

    /// Found by `fuzz-token-error` (Fuzz/Corpus/regressions): an unknown error code was quoted
    /// as it came, control characters and all.
    @Test("an unknown token error code is clipped to one printable line like any server text")
    func unknownErrorCodeClipped() throws {
        let reply = StubReply.status(400, body: #"{"error": "invaLid_sco\nline two\u001b[31m"}"#)

        let error = TokenErrorMapping.error(for: try response(reply), grant: .password)

        #expect(error == .invalidInput([FieldProblem(field: "request", message: "invaLid_sco")]))
    }
}
