import RiderDomain
import TestSupport

extension UseCaseHarness {
    /// Scripts `GET /riders/me` to accept only `token` and answer 401 to anything else, as the
    /// server does once a token has been replaced or revoked.
    /// - Parameters:
    ///   - token: the one access token the server accepts.
    ///   - onRequest: told of each request as it arrives, to follow a test's progress.
    func acceptRiderRequests(only token: String, onRequest: @escaping @Sendable (HTTPRequest) -> Void = { _ in }) {
        transport.stub(.get, "/riders/me") { request in
            onRequest(request)
            return request.bearerToken == token
                ? .successful(Fixtures.rider(), headers: ["ETag": "\"v1\""])
                : .problem(status: 401, headers: ["WWW-Authenticate": "Bearer realm=\"rider\", error=\"invalid_token\""])
        }
    }
}

extension Fixtures {
    /// The token response of a refresh that rotates both tokens (`access-2`, `refresh-2`).
    static let renewedTokens = tokenResponse(accessToken: "access-2", refreshToken: "refresh-2")
}
