import Foundation
import RiderDomain
import Testing

@Suite("RiderError")
struct RiderErrorTests {
    /// One example of every case. `caseName(of:)` switches exhaustively, so a new case fails to
    /// compile until it is added here too.
    static let examples: [RiderError] = [
        .invalidCredentials,
        .notSignedIn,
        .sessionExpired,
        .awaitingAuthorization,
        .authorizationDenied,
        .authorizationExpired,
        .forbidden(detail: nil),
        .forbidden(detail: "admins only"),
        .notFound(detail: nil),
        .notFound(detail: "no user u_000009."),
        .alreadyExists(detail: nil),
        .alreadyExists(detail: "the email is taken"),
        .conflict(current: nil),
        .conflict(current: Rider(userID: "u_000001", displayName: "Ada", riderType: .learner)),
        .invalidInput([]),
        .invalidInput([FieldProblem(field: "email", message: "must be an address"),
                       FieldProblem(field: "password", message: "too short")]),
        .invalidAvatar(.empty),
        .invalidAvatar(.tooLarge(byteCount: 5 * 1024 * 1024 + 1, limit: 5 * 1024 * 1024)),
        .invalidAvatar(.tooLarge(byteCount: 700, limit: nil)),
        .invalidAvatar(.unsupportedFormat),
        .invalidAvatar(.unreadable("/home/ana/me.jpg: no such file")),
        .serverUnreachable(reason: "connection refused"),
        .timedOut,
        .rateLimited(retryAfter: nil),
        .rateLimited(retryAfter: 2.2),
        .server(status: 503, detail: nil),
        .server(status: 500, detail: "database down"),
        .malformedResponse("the user is not valid (missing field 'id')"),
        .unsupportedTokenType("mac"),
        .unsafeRedirect("http://api.example.com"),
        .invalidConfiguration("plain http is only allowed for loopback hosts"),
        .storage("the vault file cannot be read"),
    ]

    /// Every code and the name `rider --json` prints for it: scripts depend on these names.
    static let documentedCodes: [RiderError.Code: String] = [
        .invalidCredentials: "invalid_credentials", .notSignedIn: "not_signed_in",
        .sessionExpired: "session_expired", .awaitingAuthorization: "awaiting_authorization",
        .authorizationDenied: "authorization_denied", .authorizationExpired: "authorization_expired",
        .forbidden: "forbidden", .notFound: "not_found", .alreadyExists: "already_exists",
        .conflict: "conflict", .invalidInput: "invalid_input", .invalidAvatar: "invalid_avatar",
        .serverUnreachable: "server_unreachable", .timedOut: "timed_out", .rateLimited: "rate_limited",
        .server: "server_error", .malformedResponse: "malformed_response",
        .unsupportedTokenType: "unsupported_token_type", .unsafeRedirect: "unsafe_redirect",
        .invalidConfiguration: "invalid_configuration", .storage: "storage",
    ]

    @Test("the examples cover every code, and each code keeps its documented name")
    func examplesCoverEveryCode() {
        #expect(Set(Self.examples.map(\.code)) == Set(Self.documentedCodes.keys))
        for (code, name) in Self.documentedCodes { #expect(code.description == name) }
    }

    @Test("catch RiderError.Code.x matches that code whatever the details, and nothing else")
    func catchByCode() {
        func caught(_ error: RiderError) -> String {
            do { throw error } catch RiderError.Code.notFound { return "not found" } catch { return "other" }
        }
        #expect(caught(.notFound(detail: nil)) == "not found")
        #expect(caught(.notFound(detail: "no user u_000009")) == "not found")
        #expect(caught(.forbidden(detail: nil)) == "other")
        #expect(!(RiderError.Code.storage ~= CancellationError()))
    }

    @Test("the underlying error is kept, left out of ==, and shown only by its type")
    func underlyingError() throws {
        struct DiskFull: Error, CustomStringConvertible { var description: String { "secret-looking text" } }
        let error = RiderError.storage("the cache /tmp/c.sqlite failed", underlying: DiskFull())
        #expect(error.underlying is DiskFull)
        #expect(error == .storage("the cache /tmp/c.sqlite failed"))
        #expect(error.message == "Local storage failed: the cache /tmp/c.sqlite failed.")
        #expect("\(error)" == error.message)
        #expect(String(reflecting: error).contains("DiskFull"))
        #expect(!String(reflecting: error).contains("secret-looking"))
        #expect(!error.localizedDescription.contains("secret-looking"))
    }

    @Test("a code RiderKit adds later is an error like any other")
    func openCodeSet() {
        let error = RiderError(code: .storage, message: "The keyring is locked.", detail: "locked")
        #expect(error.code == .storage)
        #expect(error.detail == "locked")
        #expect(error.errorDescription == "The keyring is locked.")
    }

    @Test("every case has a non-empty, one-line errorDescription ending in a full stop", arguments: examples)
    func oneLineDescription(error: RiderError) throws {
        let text = try #require(error.errorDescription)
        #expect(!text.trimmingCharacters(in: .whitespaces).isEmpty)
        #expect(!text.contains { $0.isNewline }, "\(text)")
        #expect(text.hasSuffix("."), "\(text)")
        #expect(!text.hasSuffix(".."), "\(text)")
        #expect(error.localizedDescription == text)
    }

    @Test("details and field problems appear in the message")
    func detailsAppear() {
        #expect(RiderError.notFound(detail: "no user u_000009.").errorDescription == "Not found: no user u_000009.")
        #expect(RiderError.invalidInput([FieldProblem(field: "email", message: "is required")]).errorDescription?
            .contains("email: is required") == true)
        #expect(RiderError.invalidInput([]).errorDescription?.contains("no reason given") == true)
        #expect(RiderError.rateLimited(retryAfter: 2.2).errorDescription?.contains("3 s") == true)
        #expect(RiderError.server(status: 502, detail: nil).errorDescription?.contains("502") == true)
    }

    @Test("a rate limit with an infinite, NaN, negative or enormous wait prints 'later' instead of crashing",
          arguments: [Double.infinity, -.infinity, .nan, -1, 1e20])
    func unprintableRetryAfter(_ seconds: Double) {
        #expect(RiderError.rateLimited(retryAfter: seconds).errorDescription
            == "The server is limiting requests; try again later.")
    }
}
