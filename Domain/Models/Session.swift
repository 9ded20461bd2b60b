import Foundation

/// A signed-in session: the tokens the server issued and whom they belong to.
///
/// `description`, `debugDescription` and reflection never show a token, so a
/// session can be logged or interpolated without leaking it.
public struct Session: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    public var accessToken: String
    /// `nil` when the server issued none: the user must log in again on expiry.
    public var refreshToken: String?
    /// `nil` when the server did not say; expiry is then discovered by a 401.
    public var expiresAt: Date?
    public var userID: UserID
    public var role: Role?
    /// `Bearer`, or `DPoP` for a session whose tokens are bound to a key (``isSenderConstrained``).
    public var tokenType: String
    /// When the tokens were issued (device clock).
    public var issuedAt: Date
    /// The OpenID identity of the account (email, name, and whether the id_token or the userinfo
    /// endpoint told it), for sessions from a provider that gave one.
    public var identity: AccountIdentity?
    /// The origin (`scheme://host[:port]`) of the revocation endpoint the session was issued with:
    /// its tokens are revoked there and nowhere else, whatever is configured later. `nil` for a
    /// session from a RiderKit that did not record it, or from a provider with no revocation
    /// endpoint: its tokens then go only to its API's or token endpoint's origin. Kept by the
    /// vault with the session, and carried over by every refresh.
    package var revocationOrigin: String?
    /// The private key of the DPoP key pair (RFC 9449) the tokens are bound to, when they are
    /// (``tokenType`` is then `DPoP`): every request made with them carries a proof signed with
    /// it. A secret as the tokens are: kept only in the vault with them, never shown.
    package var proofKey: Data?
    /// Whether the session is the client's own (the client credentials grant, RFC 6749 §4.4):
    /// it has no refresh token and is renewed by asking for new tokens as the client again.
    package var isClientSession = false
    /// The protected resource the tokens were issued for (RFC 8707), when the sign-in named one:
    /// every refresh names it again, and the tokens are sent to its origin alone. `nil` for a
    /// session that named none. Kept by the vault with the session, carried over by every refresh.
    package var resource: URL?

    /// Whether the tokens are bound to a DPoP key and useless without a proof signed with it.
    public var isSenderConstrained: Bool { proofKey != nil }

    public init(
        accessToken: String,
        refreshToken: String?,
        expiresAt: Date?,
        userID: UserID,
        role: Role?,
        tokenType: String = "Bearer",
        issuedAt: Date
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.userID = userID
        self.role = role
        self.tokenType = tokenType
        self.issuedAt = issuedAt
    }

    /// A session with the OpenID identity of its account. (An overload rather than a new
    /// defaulted parameter, so code built against the initializer above keeps linking.)
    /// - Parameters:
    ///   - accessToken: the bearer token.
    ///   - refreshToken: the refresh token, if any.
    ///   - expiresAt: when the access token expires, if known.
    ///   - userID: the account (the OpenID subject).
    ///   - role: the account's role, if known.
    ///   - tokenType: always `Bearer`.
    ///   - issuedAt: when the session was issued.
    ///   - identity: who the provider says the account is.
    public init(accessToken: String, refreshToken: String?, expiresAt: Date?, userID: UserID, role: Role?,
                tokenType: String = "Bearer", issuedAt: Date, identity: AccountIdentity?) {
        self.init(accessToken: accessToken, refreshToken: refreshToken, expiresAt: expiresAt, userID: userID,
                  role: role, tokenType: tokenType, issuedAt: issuedAt)
        self.identity = identity
    }

    /// Whether the access token is known to be expired at `date`, allowing `leeway` for the
    /// time a request takes to arrive.
    public func isExpired(at date: Date, leeway: TimeInterval = 0) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt.timeIntervalSince(date) <= leeway
    }

    public var description: String {
        let expiry = expiresAt.map { "\($0)" } ?? "unknown"
        let refresh = refreshToken == nil ? "none" : "<redacted>"
        return "Session(userID: \(userID), role: \(role?.rawValue ?? "unknown"), expiresAt: \(expiry), "
            + "accessToken: <redacted>, refreshToken: \(refresh)\(isSenderConstrained ? ", DPoP-bound" : ""))"
    }
    public var debugDescription: String { description }
    public var customMirror: Mirror {
        Mirror(self, children: [
            "userID": userID, "role": role as Any, "expiresAt": expiresAt as Any,
            "accessToken": "<redacted>", "refreshToken": refreshToken == nil ? "none" : "<redacted>",
        ])
    }
}
