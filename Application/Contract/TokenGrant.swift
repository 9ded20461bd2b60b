import Foundation
import RiderDomain

/// What a token endpoint granted, checked and normalised.
package struct TokenGrant: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    package var accessToken: String
    package var refreshToken: String?
    /// Seconds the access token lives; `nil` when unknown.
    package var lifetime: TimeInterval?
    package var userID: UserID?
    package var role: Role?
    /// When the access token expires by the server's clock, for servers that send no
    /// `expires_in` but a JWT access token with an `exp` claim.
    package var expiresAtServerTime: Date?
    /// The server's clock when it answered (its `Date` header), to measure the device's skew.
    package var serverDate: Date?
    /// The OpenID Connect id_token, when the provider sent one: read for the account's identity
    /// once verified, never stored.
    package var idToken: String?
    /// Who the account is, once the id_token or the userinfo endpoint said.
    package var identity: AccountIdentity?
    /// Whether the answer's `token_type` is `DPoP` (RFC 9449 §5): the tokens are bound to the key
    /// whose proof the request carried.
    package var isDPoPBound = false
    /// That key's private bytes, set by the service once it checked the binding: the session keeps
    /// them with its tokens.
    package var proofKey: Data?
    /// Whether the tokens were issued to the client as itself (the client credentials grant).
    package var issuedToClient = false

    /// The longest lifetime believed; a larger value is treated as this, so a server bug cannot
    /// make a token look valid for centuries.
    package static let maximumLifetime: TimeInterval = 366 * 24 * 3600

    /// A zero or negative lifetime would mean "refresh before every request"; treat it as
    /// unknown and let the server's 401 decide instead.
    static func sanitizedLifetime(_ seconds: Double?) -> TimeInterval? {
        guard let seconds, seconds.isFinite, seconds > 0 else { return nil }
        return min(seconds, maximumLifetime)
    }

    /// A session from this grant, issued at `now`. Missing fields are taken from `previous`:
    /// a refresh response without a new refresh token keeps the old one (RFC 6749 §6).
    ///
    /// An absolute expiry (``expiresAtServerTime``) is turned into one on the device's clock with
    /// the server's `Date` (or `clockSkew`, server minus device, when the response had none), so a
    /// device clock that is minutes off neither refreshes constantly nor sends expired tokens.
    package func session(issuedAt now: Date, userID fallbackUserID: UserID?, previous: Session? = nil,
                        clockSkew: TimeInterval = 0) throws -> Session {
        guard let user = userID ?? fallbackUserID ?? previous?.userID else {
            throw RiderError.malformedResponse("the token response does not say which user it is for")
        }
        var session = Session(
            accessToken: accessToken,
            refreshToken: refreshToken ?? previous?.refreshToken,
            expiresAt: effectiveLifetime(at: now, clockSkew: clockSkew).map { now.addingTimeInterval($0) },
            userID: user,
            role: role ?? previous?.role,
            tokenType: proofKey == nil ? "Bearer" : "DPoP",
            issuedAt: now,
            identity: identity ?? previous?.identity
        )
        // A refreshed session is the same grant: it stays bound where the sign-in was, never to
        // what the configuration says now.
        session.revocationOrigin = previous?.revocationOrigin
        session.proofKey = proofKey
        session.isClientSession = issuedToClient || previous?.isClientSession == true
        session.resource = previous?.resource
        return session
    }

    /// Seconds from `now` (device clock) until the access token expires, when known.
    package func effectiveLifetime(at now: Date, clockSkew: TimeInterval = 0) -> TimeInterval? {
        if let lifetime { return lifetime }
        guard let expiresAtServerTime else { return nil }
        let serverNow = serverDate ?? now.addingTimeInterval(clockSkew)
        return Self.sanitizedLifetime(expiresAtServerTime.timeIntervalSince(serverNow))
    }

    /// How far the server's clock is ahead of the device's (negative: behind), from the `Date`
    /// header of this response; `nil` without one.
    package func clockSkew(receivedAt now: Date) -> TimeInterval? {
        serverDate.map { $0.timeIntervalSince(now) }
    }

    package var description: String {
        "TokenGrant(userID: \(userID?.rawValue ?? "unknown"), lifetime: \(lifetime.map { "\($0)s" } ?? "unknown"), "
            + "accessToken: <redacted>, refreshToken: \(refreshToken == nil ? "none" : "<redacted>"), "
            + "idToken: \(idToken == nil ? "none" : "<redacted>"))"
    }

    package var debugDescription: String { description }

    /// Keeps `dump(_:)` and debuggers from printing the tokens.
    package var customMirror: Mirror {
        Mirror(self, children: [
            "userID": userID as Any, "lifetime": lifetime as Any, "role": role as Any,
            "accessToken": "<redacted>", "refreshToken": refreshToken == nil ? "none" : "<redacted>",
            "idToken": idToken == nil ? "none" : "<redacted>",
        ], displayStyle: .struct)
    }
}
