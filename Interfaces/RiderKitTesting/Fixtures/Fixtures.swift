import Foundation
import RiderApplication
import RiderDomain

/// Contract-shaped test data: JSON bodies in the API's snake_case, and the domain values that
/// go with them. Defaults describe one consistent account, so a test only spells out what it is about.
public enum Fixtures {
    /// `2025-01-02T03:04:05Z`, the instant ``ManualClock`` starts at.
    public static let epoch = Date(timeIntervalSince1970: 1_735_787_045)
    /// The same instant as the contract writes it.
    public static let epochText = "2025-01-02T03:04:05Z"

    /// The default account.
    public static let userID: UserID = "u_000001"
    public static let email = "ada@example.com"
    public static let displayName = "Ada Lovelace"
    /// A password holding every character form encoding must escape.
    public static let password = "p+ss &=/ wörd%"

    /// Tokens as the server issues them: opaque and with characters that need form escaping.
    public static let accessToken = "access-1+/="
    public static let refreshToken = "refresh-1+/="

    /// The base URL of the stubbed API.
    public static let baseURL = "https://api.example.test"

    // MARK: Domain values

    /// A configuration for ``baseURL``.
    /// - Parameters:
    ///   - baseURL: the API's base URL.
    ///   - clientID: the OAuth client id, if any.
    ///   - clientSecret: the OAuth client secret, if any.
    ///   - clientAuthentication: how the client authenticates to the token endpoint.
    ///   - refreshLeeway: how early to refresh.
    /// - Returns: the configuration.
    /// - Throws: ``RiderError/invalidConfiguration(_:underlying:)`` for an unusable `baseURL`.
    public static func configuration(
        baseURL: String = baseURL,
        clientID: String? = nil,
        clientSecret: String? = nil,
        clientAuthentication: APIConfiguration.ClientAuthentication = .basic,
        refreshLeeway: TimeInterval = 60
    ) throws -> APIConfiguration {
        guard let url = URL(string: baseURL) else {
            throw RiderError.invalidConfiguration("fixture base URL \(baseURL) does not parse")
        }
        return try APIConfiguration(baseURL: url, clientID: clientID, clientSecret: clientSecret,
                                    clientAuthentication: clientAuthentication, refreshLeeway: refreshLeeway)
    }

    /// A session issued at `issuedAt` that lives `lifetime` seconds (`nil`: unknown expiry).
    /// - Parameters:
    ///   - accessToken: the access token.
    ///   - refreshToken: the refresh token, `nil` for none.
    ///   - lifetime: seconds until it expires, `nil` when unknown.
    ///   - issuedAt: when it was issued.
    ///   - userID: whose it is.
    /// - Returns: the session.
    public static func session(
        accessToken: String = accessToken,
        refreshToken: String? = refreshToken,
        lifetime: TimeInterval? = 3600,
        issuedAt: Date = epoch,
        userID: UserID = userID
    ) -> Session {
        Session(accessToken: accessToken, refreshToken: refreshToken,
                expiresAt: lifetime.map { issuedAt.addingTimeInterval($0) }, userID: userID, role: .user,
                issuedAt: issuedAt)
    }

    /// The default account's credentials.
    public static var credentials: Credentials { Credentials(email: email, password: password) }

    /// A registration that passes local validation.
    public static var registration: Registration {
        Registration(email: "grace@example.com", password: password, displayName: "Grace Hopper", riderType: .mentor)
    }

    /// An entity tag as the server sends it.
    public static let entityTag = EntityTag(rawValue: "\"v1\"")
}
