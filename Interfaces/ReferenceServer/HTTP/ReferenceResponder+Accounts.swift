import HTTPTypes
import Hummingbird

extension ReferenceResponder {
    /// `POST /auth/register`: `201` with the new id and `Location`.
    func register(_ request: Request) async throws -> Response {
        let body = try await jsonObject(of: request, mediaTypes: [Responses.json])
        let registration = try ValidRegistration.validate(body)
        guard let user = await store.register(registration) else {
            throw APIProblem(
                status: .conflict,
                slug: "email-taken",
                title: "Email already registered",
                detail: "An account with this email address already exists."
            )
        }
        return try Responses.json(["id": user.id], status: .created, headers: [.location: "/users/\(user.id)"])
    }

    /// `GET /auth/me`: the signed-in user.
    func authMe(_ request: Request) async throws -> Response {
        let user = try await authenticate(request)
        return try Responses.json(UserBody(user), headers: Self.noStore)
    }
}

extension ReferenceResponder {
    /// `GET /userinfo` (OpenID Connect Core §5.3): who the access token's account is. A token
    /// asked for either resource (RFC 8707) is taken: the endpoint is the authorization
    /// server's, and a program signed in to `/admin` may still need to name its account.
    func userinfo(_ request: Request) async throws -> Response {
        let user = try await authorize(request, at: .api, anyAudience: true).user
        return try Responses.json(UserinfoBody(sub: user.id, email: user.email, name: user.displayName),
                                  headers: Self.noStore)
    }
}

/// The userinfo answer: the subject and the standard claims the server knows (Core §5.1).
struct UserinfoBody: Encodable, Sendable {
    let sub: String
    let email: String
    let name: String
}
