import Foundation
import RiderDomain

/// What a token endpoint granted, checked and normalised.
public struct TokenGrant: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var accessToken: String
    public var refreshToken: String?
    /// Seconds the access token lives; `nil` when unknown.
    public var lifetime: TimeInterval?
    public var userID: UserID?
    public var role: Role?

    /// The longest lifetime believed; a larger value is treated as this, so a server bug cannot
    /// make a token look valid for centuries.
    public static let maximumLifetime: TimeInterval = 366 * 24 * 3600

    /// A zero or negative lifetime would mean "refresh before every request"; treat it as
    /// unknown and let the server's 401 decide instead.
    static func sanitizedLifetime(_ seconds: Double?) -> TimeInterval? {
        guard let seconds, seconds.isFinite, seconds > 0 else { return nil }
        return min(seconds, maximumLifetime)
    }

    /// A session from this grant, issued at `now`. Missing fields are taken from `previous`:
    /// a refresh response without a new refresh token keeps the old one (RFC 6749 §6).
    public func session(issuedAt now: Date, userID fallbackUserID: UserID?, previous: Session? = nil) throws -> Session {
        guard let user = userID ?? fallbackUserID ?? previous?.userID else {
            throw RiderError.malformedResponse("the token response does not say which user it is for")
        }
        return Session(
            accessToken: accessToken,
            refreshToken: refreshToken ?? previous?.refreshToken,
            expiresAt: lifetime.map { now.addingTimeInterval($0) },
            userID: user,
            role: role ?? previous?.role,
            tokenType: "Bearer",
            issuedAt: now
        )
    }

    public var description: String {
        "TokenGrant(userID: \(userID?.rawValue ?? "unknown"), lifetime: \(lifetime.map { "\($0)s" } ?? "unknown"), "
            + "accessToken: <redacted>, refreshToken: \(refreshToken == nil ? "none" : "<redacted>"))"
    }

    public var debugDescription: String { description }

    /// Keeps `dump(_:)` and debuggers from printing the tokens.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "userID": userID as Any, "lifetime": lifetime as Any, "role": role as Any,
            "accessToken": "<redacted>", "refreshToken": refreshToken == nil ? "none" : "<redacted>",
        ], displayStyle: .struct)
    }
}
