import Foundation
import HTTPTypes
import Hummingbird

extension ReferenceResponder {
    /// Headers that keep personal data out of shared and private caches.
    static let noStore: HTTPFields = [.cacheControl: "no-store"]

    /// The user whose access token the request carries (RFC 6750 §2.1).
    /// - Throws: A `401` problem with `WWW-Authenticate` when there is no usable token.
    func authenticate(_ request: Request) async throws -> ReferenceUser {
        guard let header = request.headers[.authorization] else {
            throw unauthorized(detail: "This resource needs an access token: send Authorization: Bearer <token>.")
        }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count >= 1, parts[0].lowercased() == "bearer" else {
            throw unauthorized(detail: "Only the Bearer authorization scheme is accepted.")
        }
        let token = parts.count == 2 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        switch await store.check(accessToken: token) {
        case .valid(let user):
            return user
        case .expired:
            throw invalidToken(detail: "The access token has expired; refresh it.")
        case .unknown:
            throw invalidToken(detail: "The access token is unknown or has been revoked.")
        }
    }

    private func unauthorized(detail: String) -> APIProblem {
        APIProblem(
            status: .unauthorized,
            slug: "unauthorized",
            title: "Unauthorized",
            detail: detail,
            headers: [.wwwAuthenticate: #"Bearer realm="rider""#]
        )
    }

    private func invalidToken(detail: String) -> APIProblem {
        APIProblem(
            status: .unauthorized,
            slug: "invalid-token",
            title: "Invalid token",
            detail: detail,
            headers: [.wwwAuthenticate: #"Bearer realm="rider", error="invalid_token", error_description="\#(detail)""#]
        )
    }
}
