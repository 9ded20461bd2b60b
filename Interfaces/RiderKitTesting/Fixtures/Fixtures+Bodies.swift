import Foundation
import RiderDomain

extension Fixtures {
    // MARK: JSON bodies

    /// A token response (RFC 6749 §5.1); a `nil` argument leaves its key out.
    /// - Parameters:
    ///   - accessToken: `access_token`.
    ///   - tokenType: `token_type`.
    ///   - expiresIn: `expires_in` (a number, or a string for lenient-parsing tests).
    ///   - refreshToken: `refresh_token`.
    ///   - userID: `user_id`.
    ///   - role: `role`.
    /// - Returns: the body.
    public static func tokenResponse(
        accessToken: String? = accessToken,
        tokenType: String? = "Bearer",
        expiresIn: FixtureJSON? = 3600,
        refreshToken: String? = refreshToken,
        userID: String? = Fixtures.userID.rawValue,
        role: String? = "user"
    ) -> FixtureJSON {
        .object(dropping: [
            ("access_token", accessToken.map(FixtureJSON.string)),
            ("token_type", tokenType.map(FixtureJSON.string)),
            ("expires_in", expiresIn),
            ("refresh_token", refreshToken.map(FixtureJSON.string)),
            ("user_id", userID.map(FixtureJSON.string)),
            ("role", role.map(FixtureJSON.string)),
        ])
    }

    /// A token error (RFC 6749 §5.2).
    /// - Parameters:
    ///   - error: the `error` code.
    ///   - description: the `error_description`.
    /// - Returns: the body.
    public static func tokenError(_ error: String, description: String? = nil) -> FixtureJSON {
        .object(dropping: [("error", .string(error)), ("error_description", description.map(FixtureJSON.string))])
    }

    /// A user.
    /// - Parameters:
    ///   - id: `id`.
    ///   - email: `email`.
    ///   - displayName: `display_name`.
    ///   - role: `role`.
    ///   - riderType: `rider_type`.
    ///   - createdAt: `created_at`.
    /// - Returns: the body.
    public static func user(
        id: String = userID.rawValue,
        email: String = email,
        displayName: String = displayName,
        role: String = "user",
        riderType: String = "learner",
        createdAt: String = epochText
    ) -> FixtureJSON {
        ["id": .string(id), "email": .string(email), "display_name": .string(displayName), "role": .string(role),
         "rider_type": .string(riderType), "created_at": .string(createdAt)]
    }

    /// A page of users.
    /// - Parameters:
    ///   - users: `users`.
    ///   - total: `total`; defaults to the number of users.
    ///   - page: `page`.
    ///   - limit: `limit`.
    ///   - hasNext: `has_next`.
    /// - Returns: the body.
    public static func userPage(
        users: [FixtureJSON], total: Int? = nil, page: Int = 1, limit: Int = 20, hasNext: Bool = false
    ) -> FixtureJSON {
        ["users": .array(users), "total": .integer(total ?? users.count), "page": .integer(page),
         "limit": .integer(limit), "has_next": .bool(hasNext)]
    }

    /// A rider profile; `nil` description or avatar is sent as JSON `null`.
    /// - Parameters:
    ///   - userID: `user_id`.
    ///   - displayName: `display_name`.
    ///   - riderType: `rider_type`.
    ///   - description: `description`.
    ///   - avatarURL: `avatar_url`.
    ///   - sports: `sports`.
    ///   - updatedAt: `updated_at`.
    /// - Returns: the body.
    public static func rider(
        userID: String = Fixtures.userID.rawValue,
        displayName: String = displayName,
        riderType: String = "learner",
        description: String? = "Weekend gravel.",
        avatarURL: String? = nil,
        sports: [String] = ["gravel"],
        updatedAt: String = epochText
    ) -> FixtureJSON {
        ["user_id": .string(userID), "display_name": .string(displayName), "rider_type": .string(riderType),
         "description": description.map(FixtureJSON.string) ?? .null,
         "avatar_url": avatarURL.map(FixtureJSON.string) ?? .null,
         "sports": .array(sports.map(FixtureJSON.string)), "updated_at": .string(updatedAt)]
    }

    /// An RFC 9457 problem.
    /// - Parameters:
    ///   - status: `status`.
    ///   - detail: `detail`.
    ///   - errors: `errors`, as (field, message); left out when empty.
    /// - Returns: the body.
    public static func problem(
        status: Int, detail: String? = nil, errors: [(field: String, message: String)] = []
    ) -> FixtureJSON {
        let title = ReasonPhrase.title(for: status)
        return .object(dropping: [
            ("type", "about:blank"),
            ("title", .string(title)),
            ("status", .integer(status)),
            ("detail", detail.map(FixtureJSON.string)),
            ("errors", errors.isEmpty ? nil
                : .array(errors.map { ["field": .string($0.field), "message": .string($0.message)] })),
        ])
    }

    /// The answer to `POST /auth/register`.
    /// - Parameter id: the new account's id.
    /// - Returns: the body.
    public static func registered(id: String = "u_000002") -> FixtureJSON { ["id": .string(id)] }
}

/// Reason phrases for the problem `title`, so fixture bodies look like the server's.
private enum ReasonPhrase {
    static func title(for status: Int) -> String {
        switch status {
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 409: return "Conflict"
        case 412: return "Precondition Failed"
        case 422: return "Unprocessable Content"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 503: return "Service Unavailable"
        default: return "HTTP \(status)"
        }
    }
}
