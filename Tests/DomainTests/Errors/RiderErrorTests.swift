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

    static func caseName(of error: RiderError) -> String {
        switch error {
        case .invalidCredentials: "invalidCredentials"
        case .notSignedIn: "notSignedIn"
        case .sessionExpired: "sessionExpired"
        case .awaitingAuthorization: "awaitingAuthorization"
        case .forbidden: "forbidden"
        case .notFound: "notFound"
        case .alreadyExists: "alreadyExists"
        case .conflict: "conflict"
        case .invalidInput: "invalidInput"
        case .invalidAvatar: "invalidAvatar"
        case .serverUnreachable: "serverUnreachable"
        case .timedOut: "timedOut"
        case .rateLimited: "rateLimited"
        case .server: "server"
        case .malformedResponse: "malformedResponse"
        case .unsupportedTokenType: "unsupportedTokenType"
        case .unsafeRedirect: "unsafeRedirect"
        case .invalidConfiguration: "invalidConfiguration"
        case .storage: "storage"
        }
    }

    @Test("the examples cover every case")
    func examplesCoverEveryCase() {
        #expect(Set(Self.examples.map(Self.caseName)).count == 19)
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
